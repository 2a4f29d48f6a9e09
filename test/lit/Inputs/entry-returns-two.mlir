module attributes {hlo.entry = @main} {
  func.func @main(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    return %a, %a : tensor<4xf32>, tensor<4xf32>
  }
}
