"""Wraps an HloModuleProto (argv[1]) as XLA's HloModuleProtoWithConfig
(argv[2]) with a config (with argv[3] "bad", one that scans but is no
HloModuleConfigProto) as HloModule::ToProtoWithConfig writes one: the
entry layout, fields weightpack does not model (seed, launch_id,
intra_op_parallelism_threads, device_type, debug_options) between the
settings it prints, in field order. Proto bytes text cannot express."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "tools", "py"))
from hlopb import key, read_varint, varint  # noqa: E402


def field(num, wire, payload):
    if wire == 2:
        return key(num, 2) + varint(len(payload)) + payload
    return key(num, wire) + payload


def fields(data):
    """Top-level (number, payload) pairs of length-delimited fields."""
    i = 0
    while i < len(data):
        k, i = read_varint(data, i)
        if k & 7 == 0:
            _, i = read_varint(data, i)
        elif k & 7 == 2:
            n, i = read_varint(data, i)
            yield k >> 3, data[i:i + n]
            i += n
        else:
            raise SystemExit("unexpected wire type %d" % (k & 7))


module = open(sys.argv[1], "rb").read()
layout = next(p for n, p in fields(module) if n == 4)  # host_program_shape
config = b"".join([
    field(1, 2, layout),                  # entry_computation_layout
    field(2, 0, varint(42)),              # seed
    field(3, 0, varint(7)),               # launch_id
    field(4, 0, varint(2)),               # replica_count
    field(5, 0, varint(4)),               # num_partitions
    field(7, 0, varint(1)),               # use_spmd_partitioning
    field(12, 0, varint(-1)),             # intra_op_parallelism_threads
    field(13, 2, b"neuron"),              # device_type
    field(14, 2, field(112, 0, varint(1))),  # debug_options
    field(17, 0, varint(1)),              # alias_passthrough_params
    field(27, 2, b"\x01"),                # allow_spmd_..._to_output {true}
    field(33, 2, b"\x00"),                # allow_spmd_..._to_parameters {false}
])
if sys.argv[3:] == ["bad"]:  # field 4 (replica_count) length-delimited
    config = field(4, 2, b"")
open(sys.argv[2], "wb").write(field(1, 2, module) + field(2, 2, config))
