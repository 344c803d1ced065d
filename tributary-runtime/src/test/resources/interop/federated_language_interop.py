"""federated-language's side of Tributary's interop test (FederatedLanguageInteropTest).

  write OUT_DIR   builds computations with federated-language, writes each as NAME.pb, and
                  writes OUT_DIR/cases.json: per case the type (proto bytes, base64, and text),
                  the arguments, the number of clients, data bindings and the result that numpy
                  computes for those arguments.
  read IN_DIR     reads IN_DIR/manifest.json (names of computations Tributary wrote), loads each
                  NAME.pb with federated-language's own building blocks (whose Intrinsic
                  constructor checks every intrinsic's type against its template) and prints a
                  JSON object: name -> {"type": base64 Type proto, "text": str(type)} or
                  {"error": message}.

Values are JSON: a tensor is {"dtype", "shape", "data": base64 of little-endian bytes} (strings:
"strings": [...]); a struct {"struct": [[name or null, value], ...]}; a sequence
{"sequence": [...]}; a value per client {"clients": [...]}.
Only numpy, the standard library and federated-language are used.
"""

import base64
import json
import os
import sys

import federated_language as fl
from federated_language.compiler import building_blocks
from federated_language.proto import computation_pb2
import ml_dtypes
import numpy as np

C = fl.CLIENTS
S = fl.SERVER
FT = fl.FederatedType


# ---------------------------------------------------------------------------------- values


def tensor(a):
  a = np.asarray(a)
  if a.dtype.kind in 'US':
    return {'dtype': 'string', 'shape': list(a.shape),
            'strings': [x.decode() if isinstance(x, bytes) else str(x) for x in a.reshape(-1)]}
  name = 'bfloat16' if a.dtype == ml_dtypes.bfloat16 else a.dtype.name
  return {'dtype': name, 'shape': list(a.shape),
          'data': base64.b64encode(a.astype(a.dtype.newbyteorder('<')).tobytes()).decode()}


def struct(*elements):
  return {'struct': [[n, v] for n, v in elements]}


def sequence(values):
  return {'sequence': list(values)}


def clients(values):
  return {'clients': list(values)}


def type_b64(t):
  return base64.b64encode(t.to_proto().SerializeToString()).decode()


# ----------------------------------------------------------------------- local functions


def intrinsic_fn(uri, fn_type):
  """A computation that calls one intrinsic, as federated-language's compiler emits them."""
  param = fn_type.parameter
  body = building_blocks.Call(
      building_blocks.Intrinsic(uri, fn_type), building_blocks.Reference('x', param))
  return fl.framework.ConcreteComputation.from_building_block(
      building_blocks.Lambda('x', param, body))


def binary(uri, t, result=None):
  return intrinsic_fn(uri, fl.FunctionType(fl.StructType([t, t]), result or t))


def data_reference(uri):
  """Any(tributary.core.DataReference{uri}): field 1, a length-delimited string."""
  from google.protobuf import any_pb2
  raw = uri.encode()
  return any_pb2.Any(type_url='type.googleapis.com/tributary.core.DataReference',
                     value=bytes([0x0A, len(raw)]) + raw)


def data_array(array):
  from google.protobuf import any_pb2
  content = any_pb2.Any()
  content.Pack(fl.array_to_proto(array))
  return content


def data_comp(content, t):
  return fl.framework.ConcreteComputation.from_building_block(
      building_blocks.Lambda(None, None, building_blocks.Data(content, t)))


# ----------------------------------------------------------------------------- the cases


def cases():
  out = []

  def case(name, comp, args=None, expected=None, n_clients=None, data=None):
    out.append(dict(name=name, comp=comp, args=args, expected=expected,
                    clients=n_clients, data=data or {}))

  i32, f32, f64 = np.int32, np.float32, np.float64
  xs = [np.float32(1.5), np.float32(2.25), np.float32(-3.0)]
  ws = [np.float32(1.0), np.float32(3.0), np.float32(0.5)]
  ints = [i32(4), i32(-7), i32(12)]

  case('sum_of_broadcast',
       fl.federated_computation(lambda x: fl.federated_sum(fl.federated_broadcast(x)),
                                FT(i32, S)),
       tensor(i32(7)), tensor(i32(21)), n_clients=3)
  case('sum_of_value_at_clients',
       fl.federated_computation(lambda: fl.federated_sum(fl.federated_value(i32(3), C))),
       None, tensor(i32(12)), n_clients=4)
  case('mean', fl.federated_computation(lambda v: fl.federated_mean(v), FT(f32, C)),
       clients(tensor(x) for x in xs), tensor(f32(np.mean(np.array(xs, f64)))))
  case('weighted_mean',
       fl.federated_computation(lambda v, w: fl.federated_mean(v, w), FT(f32, C), FT(f32, C)),
       struct(('v', clients(tensor(x) for x in xs)), ('w', clients(tensor(w) for w in ws))),
       tensor(f32(np.dot(np.array(xs, f64), np.array(ws, f64)) / np.sum(np.array(ws, f64)))))
  case('mean_of_broadcast_struct',
       fl.federated_computation(lambda x: fl.federated_mean(fl.federated_broadcast(x)),
                                FT(fl.StructType([('a', f32), ('b', fl.TensorType(f64, [2]))]),
                                   S)),
       struct(('a', tensor(f32(0.5))), ('b', tensor(np.array([1.0, -2.0])))),
       struct(('a', tensor(f32(0.5))), ('b', tensor(np.array([1.0, -2.0])))), n_clients=3)
  case('min', fl.federated_computation(lambda v: fl.federated_min(v), FT(i32, C)),
       clients(tensor(x) for x in ints), tensor(i32(-7)))
  case('max', fl.federated_computation(lambda v: fl.federated_max(v),
                                       FT(fl.TensorType(f64, [2]), C)),
       clients([tensor(np.array([1.0, 5.0])), tensor(np.array([3.0, -1.0]))]),
       tensor(np.array([3.0, 5.0])))
  case('secure_sum',
       fl.federated_computation(lambda v: fl.federated_secure_sum(v, 100), FT(i32, C)),
       clients(tensor(i32(x)) for x in [5, 60, 99]), tensor(i32(164)))
  case('secure_sum_bitwidth',
       fl.federated_computation(lambda v: fl.federated_secure_sum_bitwidth(v, 8), FT(i32, C)),
       clients(tensor(i32(x)) for x in [200, 100, 7]), tensor(i32((200 + 100 + 7) % 256)))
  case('zip_at_clients',
       fl.federated_computation(lambda a, b: fl.federated_zip([a, b]), FT(i32, C), FT(f32, C)),
       struct(('a', clients([tensor(i32(1)), tensor(i32(2))])),
              ('b', clients([tensor(f32(0.5)), tensor(f32(1.5))]))),
       clients([struct((None, tensor(i32(1))), (None, tensor(f32(0.5)))),
                struct((None, tensor(i32(2))), (None, tensor(f32(1.5))))]))
  case('zip_at_server',
       fl.federated_computation(lambda a, b: fl.federated_zip((a, b)), FT(i32, S), FT(f32, S)),
       struct(('a', tensor(i32(1))), ('b', tensor(f32(0.5)))),
       struct((None, tensor(i32(1))), (None, tensor(f32(0.5)))))

  @fl.federated_computation(i32)
  def pair(a):
    return (a, a)

  case('apply', fl.federated_computation(lambda x: fl.federated_map(pair, x), FT(i32, S)),
       tensor(i32(3)), struct((None, tensor(i32(3))), (None, tensor(i32(3)))))
  case('map_of_broadcast',
       fl.federated_computation(lambda x: fl.federated_map(pair, fl.federated_broadcast(x)),
                                FT(i32, S)),
       tensor(i32(3)), clients([struct((None, tensor(i32(3))), (None, tensor(i32(3))))] * 2),
       n_clients=2)
  case('map', fl.federated_computation(lambda x: fl.federated_map(pair, x), FT(i32, C)),
       clients(tensor(x) for x in ints),
       clients(struct((None, tensor(x)), (None, tensor(x))) for x in ints))
  case('eval_at_clients',
       fl.federated_computation(lambda: fl.federated_eval(
           fl.federated_computation(lambda: np.float32(1.5)), C)),
       None, clients([tensor(f32(1.5))] * 2), n_clients=2)
  case('eval_at_server',
       fl.federated_computation(lambda: fl.federated_eval(
           fl.federated_computation(lambda: np.int64(-9)), S)),
       None, tensor(np.int64(-9)))

  # The zero must be the merge's identity (federated-language's contract): partial aggregates
  # may each start from it.
  plus_i32 = binary('generic_plus', fl.TensorType(i32))
  case('aggregate_with_generic_plus',
       fl.federated_computation(
           lambda v: fl.federated_aggregate(v, i32(0), plus_i32, plus_i32, pair), FT(i32, C)),
       clients(tensor(x) for x in ints),
       struct((None, tensor(i32(sum(ints)))), (None, tensor(i32(sum(ints))))))

  @fl.federated_computation(i32, i32)
  def select_fn(state, key):
    return (state, key)

  keys = [np.array([0, 2], i32), np.array([1, 1], i32)]
  def selecting(op):
    return fl.federated_computation(lambda k, m, s: op(k, m, s, select_fn),
                                    FT(fl.TensorType(i32, [2]), C), FT(i32, S), FT(i32, S))

  for uri, op in [('select', fl.federated_select), ('secure_select', fl.federated_secure_select)]:
    case(uri, selecting(op),
         struct(('k', clients(tensor(k) for k in keys)), ('m', tensor(i32(3))),
                ('s', tensor(i32(40)))),
         clients(sequence(struct((None, tensor(i32(40))), (None, tensor(i32(x)))) for x in k)
                 for k in keys))

  seq = fl.SequenceType(i32)
  sums = fl.federated_computation(lambda s: fl.sequence_sum(s), seq)
  case('sequence_sum_at_clients',
       fl.federated_computation(lambda x: fl.federated_map(sums, x), FT(seq, C)),
       clients([sequence([tensor(i32(1)), tensor(i32(2))]), sequence([])]),
       clients([tensor(i32(3)), tensor(i32(0))]))
  # sequence_map on client values: federated-language writes federated_map of a curried lambda
  # that captures the mapped function, (arg0 -> (arg1 -> sequence_map(<arg0,arg1>)))(fn).
  case('sequence_map_at_clients',
       fl.federated_computation(lambda x: fl.sequence_map(pair, x), FT(seq, C)),
       clients([sequence([tensor(i32(1)), tensor(i32(2))]), sequence([tensor(i32(5))])]),
       clients([sequence([struct((None, tensor(i32(v))), (None, tensor(i32(v))))
                          for v in vs]) for vs in [[1, 2], [5]]]))
  case('sequence_reduce',
       fl.federated_computation(lambda s: fl.sequence_reduce(s, i32(100), plus_i32), seq),
       sequence([tensor(i32(1)), tensor(i32(2)), tensor(i32(3))]), tensor(i32(106)))

  a = np.array([[1.5, -2.0], [0.25, 8.0]], np.float32)
  b = np.array([[0.5, 4.0], [-0.125, 3.0]], np.float32)
  t = fl.TensorType(np.float32, [2, 2])
  ti = fl.TensorType(i32, [3])
  ia, ib = np.array([7, -9, 1], i32), np.array([2, 4, 3], i32)
  for uri, fn in [('generic_plus', np.add), ('generic_multiply', np.multiply)]:
    case(uri, binary(uri, t), struct((None, tensor(a)), (None, tensor(b))), tensor(fn(a, b)))
  case('generic_divide', binary('generic_divide', t),
       struct((None, tensor(a)), (None, tensor(b))), tensor(np.true_divide(a, b)))
  case('generic_divide_int32', binary('generic_divide', ti, fl.TensorType(np.float64, [3])),
       struct((None, tensor(ia)), (None, tensor(ib))), tensor(np.true_divide(ia, ib)))
  u = np.array([2 ** 63 + 5, 2 ** 64 - 1], np.uint64)
  case('generic_divide_uint64',
       binary('generic_divide', fl.TensorType(np.uint64, [2]), fl.TensorType(np.float64, [2])),
       struct((None, tensor(u)), (None, tensor(np.array([3, 7], np.uint64)))),
       tensor(np.true_divide(u, np.array([3, 7], np.uint64))))
  i8 = np.array([-128, 7, 100], np.int8)
  case('generic_divide_int8',
       binary('generic_divide', fl.TensorType(np.int8, [3]), fl.TensorType(np.float32, [3])),
       struct((None, tensor(i8)), (None, tensor(np.array([3, -2, 9], np.int8)))),
       tensor((i8.astype(np.float64) / np.array([3, -2, 9], np.float64)).astype(np.float32)))
  case('generic_zero',
       fl.framework.ConcreteComputation.from_building_block(building_blocks.Lambda(
           None, None, building_blocks.Intrinsic('generic_zero', t))),
       None, tensor(np.zeros((2, 2), np.float32)))

  def constant(v):
    return fl.federated_computation(lambda: fl.federated_value(v, S))

  literals = [np.array([True, False]), np.array([-3, 4], np.int8), np.array([250, 1], np.uint8),
              np.array([-300, 7], np.int16), np.array([60000, 2], np.uint16),
              np.array([-70000, 1], np.int32), np.array([4000000000, 3], np.uint32),
              np.array([-(2 ** 40), 5], np.int64), np.array([2 ** 63 + 5, 1], np.uint64),
              np.array([1.5, -0.25], np.float16), np.array([3.25, -1e-3], np.float32),
              np.array([2.5e300, -7.0], np.float64),
              np.array([1 + 2j, -0.5j], np.complex64), np.array([3 - 4j, 1e-200j], np.complex128),
              np.array([1.5, -2.0], ml_dtypes.bfloat16), np.array(['abc', 'd e'])]
  for v in literals:
    name = 'literal_' + ('bfloat16' if v.dtype == ml_dtypes.bfloat16 else
                         'string' if v.dtype.kind == 'U' else v.dtype.name)
    case(name, constant(v), None, tensor(v))

  case('server_value_not_all_equal',
       fl.federated_computation(lambda x: x, FT(i32, S, all_equal=False)),
       tensor(i32(5)), tensor(i32(5)))
  ti2 = fl.TensorType(np.float32, [2])
  case('data_reference', data_comp(data_reference('mem://weights'), ti2),
       None, tensor(np.array([0.5, 1.5], np.float32)),
       data={'mem://weights': tensor(np.array([0.5, 1.5], np.float32))})
  case('data_inline_array', data_comp(data_array(np.array([7, 8, 9], np.int64)),
                                      fl.TensorType(np.int64, [3])),
       None, tensor(np.array([7, 8, 9], np.int64)))
  return out


def write(out_dir):
  os.makedirs(out_dir, exist_ok=True)
  manifest = []
  for c in cases():
    comp = c['comp']
    with open(os.path.join(out_dir, c['name'] + '.pb'), 'wb') as f:
      f.write(comp.to_proto().SerializeToString())
    manifest.append({
        'name': c['name'], 'type': type_b64(comp.type_signature),
        'text': str(comp.type_signature), 'args': c['args'], 'expected': c['expected'],
        'clients': c['clients'], 'data': c['data'],
        'body': comp.to_building_block().compact_representation()})
  with open(os.path.join(out_dir, 'cases.json'), 'w') as f:
    json.dump(manifest, f, indent=1)
  print(len(manifest), 'cases written')


def read(in_dir):
  with open(os.path.join(in_dir, 'manifest.json')) as f:
    names = json.load(f)
  result = {}
  for name in names:
    try:
      pb = computation_pb2.Computation()
      with open(os.path.join(in_dir, name + '.pb'), 'rb') as f:
        pb.ParseFromString(f.read())
      bb = building_blocks.ComputationBuildingBlock.from_proto(pb)
      result[name] = {'type': type_b64(bb.type_signature), 'text': str(bb.type_signature)}
    except Exception as e:  # noqa: BLE001 - each failure is reported to the Java test by name
      result[name] = {'error': f'{type(e).__name__}: {e}'}
  json.dump(result, sys.stdout, indent=1)


if __name__ == '__main__':
  {'write': write, 'read': read}[sys.argv[1]](sys.argv[2])
