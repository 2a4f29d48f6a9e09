module attributes {hlo.entry = @main} {
  func.func private @main(tensor<2xf32>) -> tensor<2xf32>
}
