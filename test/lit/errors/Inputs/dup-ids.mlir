module attributes {hlo.entry = @main} {
  func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
    %a = "hlo.negate"(%x) {id = 7 : i64} : (tensor<2xf32>) -> tensor<2xf32>
    %b = "hlo.negate"(%a) {id = 7 : i64} : (tensor<2xf32>) -> tensor<2xf32>
    return %b : tensor<2xf32>
  }
}
