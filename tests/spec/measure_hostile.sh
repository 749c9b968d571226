#!/bin/sh
# Wall time, CPU time and peak memory of `oprig spec lint` on generated
# hostile and large specs (a 2 MB file of a million nested arrays, a 10 MB
# JSON config, a 10 MB XML collection). Usage: measure_hostile.sh path/to/oprig
set -eu
oprig=${1:?usage: measure_hostile.sh path/to/oprig}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$dir" <<'PY'
import sys
d = sys.argv[1]
n = 1000000
open(f"{d}/nested.json", "w").write("[" * n + "]" * n)
ops, i = [], 0
while sum(map(len, ops)) < 10 << 20:
    ops.append('{"type": "Op%d", "inputs": [{"name": "x", "per_core_data_types": {"CPU": "FLOAT_32", "GPU": "FLOAT_16", '
               '"DSP": "UINT_8"}, "tensor_layout": "NHWC"}, {"name": "w", "data_type": "FLOAT_32", "static": true, '
               '"default_value": [1, 2, 3]}], "outputs": [{"name": "y", "data_type": "FLOAT_32"}], "scalar_params": '
               '[{"name": "alpha", "data_type": "FLOAT_32", "default_value": 0.5}], "tensor_params": [{"name": "table", '
               '"data_type": "FLOAT_32", "default_value": [[1, 2], [3, 4]]}], "core_types": ["CPU", "GPU", "DSP"], '
               '"dsp_arch_types": ["v68"]}' % i)
    i += 1
open(f"{d}/big.json", "w").write('{"UdoPackage_0": {"Operators": [\n' + ",\n".join(ops) + '\n], "UDO_PACKAGE_NAME": "Big"}}\n')
defs, sups, i = [], [], 0
while sum(map(len, defs)) + sum(map(len, sups)) < 10 << 20:
    defs.append(f'<OpDef><Name>Op{i}</Name><Description><Content>operator {i}</Content></Description>\n'
                '<Input><Name>x</Name><Mandatory>true</Mandatory><Datatype>BACKEND_SPECIFIC</Datatype><Shape><Rank>ND</Rank>'
                '<Layout>NHWC</Layout></Shape></Input>\n<Output><Name>y</Name><Mandatory>true</Mandatory><Datatype>'
                'QNN_DATATYPE_FLOAT_32</Datatype><Shape><Rank>ND</Rank></Shape></Output>\n<Parameter><Name>alpha</Name>'
                '<Mandatory>false</Mandatory><Datatype>QNN_DATATYPE_FLOAT_32</Datatype><Shape><Rank>SCALAR</Rank></Shape>'
                '<Default>0.5</Default></Parameter>\n<SupportedBackend>CPU</SupportedBackend></OpDef>\n')
    sups.append(f'<SupplementalOpDef><Name>Op{i}</Name><Input><Name>x</Name><Datatype>QNN_DATATYPE_FLOAT_32</Datatype>'
                '</Input></SupplementalOpDef>\n')
    i += 1
open(f"{d}/big.xml", "w").write('<OpDefCollection PackageName="Big" Domain="big" Version="1"><OpDefList>\n' + "".join(defs) +
    '</OpDefList><SupplementalOpDefList Backend="CPU">\n' + "".join(sups) + '</SupplementalOpDefList></OpDefCollection>\n')
PY
for f in nested.json big.json big.xml; do
  size=$(wc -c < "$dir/$f")
  /usr/bin/time -f "$f ($size bytes): %e s wall, %U s user, %S s system, peak %M KiB, exit %x" \
    "$oprig" spec lint "$dir/$f" > /dev/null 2> "$dir/err" || true
  tail -n 1 "$dir/err"
done
