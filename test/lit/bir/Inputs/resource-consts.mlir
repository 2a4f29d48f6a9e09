module @m attributes {hlo.entry = @main} {
  func.func @main() -> tuple<tensor<2xf16>, tensor<2xbf16>, tensor<1xcomplex<f32>>, tensor<3xi1>> {
    %0 = "hlo.constant"() {id = 1 : i64, name = "h", value = dense_resource<h> : tensor<2xf16>} : () -> tensor<2xf16>
    %1 = "hlo.constant"() {id = 2 : i64, name = "b", value = dense_resource<b> : tensor<2xbf16>} : () -> tensor<2xbf16>
    %2 = "hlo.constant"() {id = 3 : i64, name = "c", value = dense_resource<c> : tensor<1xcomplex<f32>>} : () -> tensor<1xcomplex<f32>>
    %3 = "hlo.constant"() {id = 4 : i64, name = "p", value = dense_resource<p> : tensor<3xi1>} : () -> tensor<3xi1>
    %4 = "hlo.tuple"(%0, %1, %2, %3) {id = 5 : i64, name = "out", operand_segment_sizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<2xf16>, tensor<2xbf16>, tensor<1xcomplex<f32>>, tensor<3xi1>) -> tuple<tensor<2xf16>, tensor<2xbf16>, tensor<1xcomplex<f32>>, tensor<3xi1>>
    return %4 : tuple<tensor<2xf16>, tensor<2xbf16>, tensor<1xcomplex<f32>>, tensor<3xi1>>
  }
}
{-#
  dialect_resources: {
    builtin: {
      h: "0x02000000003C00C0",
      b: "0x02000000803F00C0",
      c: "0x040000000000803F000000C0",
      p: "0x01000000010001"
    }
  }
#-}
