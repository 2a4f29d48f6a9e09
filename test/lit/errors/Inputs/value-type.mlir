module attributes {hlo.entry = @main} {
  func.func @main() -> tensor<1000xf32> {
    %c = "hlo.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<1000xf32>
    return %c : tensor<1000xf32>
  }
}
