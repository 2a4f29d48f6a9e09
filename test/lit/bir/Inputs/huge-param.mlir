module @m attributes {hlo.entry = @main} {
  func.func @main(%a: tensor<4611686018427387904xf32> {hlo.name = "huge"}) -> tensor<4611686018427387904xf32> {
    return %a : tensor<4611686018427387904xf32>
  }
}
