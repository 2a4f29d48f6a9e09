module @m attributes {hlo.entry = @main} {
  func.func @main(%a: tensor<1152921504606846976xf32> {hlo.name = "a"}, %b: tensor<1152921504606846976xf32> {hlo.name = "b"}) -> tensor<1152921504606846976xf32> {
    return %a : tensor<1152921504606846976xf32>
  }
}
