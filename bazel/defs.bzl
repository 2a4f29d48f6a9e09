"""weightpack_neff: a NEFF packed from a model directory by weightpack-opt.

Installed as share/weightpack/bazel/defs.bzl; docs/build-systems.md says
how a workspace reaches it (a new_local_repository over the install
prefix, with share/weightpack/bazel/weightpack.BUILD as its build file).

The action is hermetic: its inputs are the model directory's files (the
module, metadata.json, the weights) and weightpack-opt itself, its one
output the NEFF, which is byte-identical from run to run. So Bazel may
take it from a disk or remote cache, or run it remotely.
"""

def _weightpack_neff_impl(ctx):
    out = ctx.outputs.out
    metadata = ctx.file.metadata
    args = ctx.actions.args()
    args.add(metadata.dirname)
    args.add_all(ctx.attr.pipeline, format_each = "--%s")
    args.add("-o", out)
    args.add_all(ctx.attr.opts)
    ctx.actions.run(
        executable = ctx.executable.opt,
        arguments = [args],
        inputs = [metadata] + ctx.files.srcs,
        outputs = [out],
        mnemonic = "WeightpackNeff",
        progress_message = "Packing NEFF %s" % out.short_path,
        # opt keeps every weight path inside the model directory, links
        # resolved; a sandbox's inputs are links out of it. A remote
        # executor gets real files: remote execution is not affected.
        execution_requirements = {"no-sandbox": "1"},
    )
    return [DefaultInfo(files = depset([out]))]

weightpack_neff = rule(
    implementation = _weightpack_neff_impl,
    doc = "Packs the model directory holding `metadata` into the NEFF `out`.",
    attrs = {
        "metadata": attr.label(
            allow_single_file = ["metadata.json"],
            mandatory = True,
            doc = "The model directory's metadata.json; its directory is opt's input.",
        ),
        "srcs": attr.label_list(
            allow_files = True,
            doc = "The model directory's other files: the module and the weights it names.",
        ),
        "out": attr.output(mandatory = True, doc = "The NEFF."),
        "pipeline": attr.string_list(
            default = ["inline-weights", "bir-lower", "neff-pack"],
            doc = "opt's pass flags without '--', options and all " +
                  "('bir-lower=small-weight-threshold=0').",
        ),
        "opts": attr.string_list(doc = "More opt flags."),
        "opt": attr.label(
            default = Label("@weightpack//:bin/weightpack-opt"),
            allow_single_file = True,
            executable = True,
            cfg = "exec",
            doc = "weightpack-opt.",
        ),
    },
)
