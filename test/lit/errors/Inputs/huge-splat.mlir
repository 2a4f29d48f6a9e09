module attributes {hlo.entry = @main} {
  func.func @main() -> tensor<4611686018427387904xf32> {
    %c = "hlo.constant"() {value = dense<1.0> : tensor<4611686018427387904xf32>} : () -> tensor<4611686018427387904xf32>
    return %c : tensor<4611686018427387904xf32>
  }
}
