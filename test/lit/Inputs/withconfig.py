"""Wraps an HloModuleProto (argv[1]) as XLA's HloModuleProtoWithConfig
(argv[2]) with a config (with argv[3] "bad", one that scans but is no
HloModuleConfigProto) as HloModule::ToProtoWithConfig writes one: the
entry layout, fields weightpack does not model (seed, launch_id,
intra_op_parallelism_threads, device_type, debug_options) between the
settings it prints, in field order. Proto bytes text cannot express."""
import sys


def varint(v):
    v &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def field(num, wire, payload):
    key = varint(num << 3 | wire)
    if wire == 2:
        return key + varint(len(payload)) + payload
    return key + payload


def fields(data):
    """Top-level (number, payload) pairs of length-delimited fields."""
    i = 0
    while i < len(data):
        key = 0
        shift = 0
        while True:
            b = data[i]
            i += 1
            key |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                break
        wire = key & 7
        if wire == 0:
            while data[i] & 0x80:
                i += 1
            i += 1
            continue
        if wire == 2:
            n = 0
            shift = 0
            while True:
                b = data[i]
                i += 1
                n |= (b & 0x7F) << shift
                shift += 7
                if not b & 0x80:
                    break
            yield key >> 3, data[i:i + n]
            i += n
            continue
        raise SystemExit("unexpected wire type %d" % wire)


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
