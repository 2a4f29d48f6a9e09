module attributes {hlo.entry = @main} {
  func.func @main(%a: tensor<4xf32>) {
    return
  }
}
