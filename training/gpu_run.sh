#!/usr/bin/env bash
# The verifier's two training stages on a lent GPU machine, from packs (training/pack.py):
#
#   here:  python -m training pack --stage generic --pack .gpu/generic.pack
#          python -m training pack --stage attribution --pack .gpu/attribution.pack
#          python -m training base-pack --packs .gpu/*.pack --out .gpu/base
#   there: PACKS=.gpu bash training/gpu_run.sh      (OUT: where the results go)
#
# Each variant (VARIANTS: "full", the whole mix; "commercial", only data whose licence allows
# commercial use; "l3" (any number), the whole mix on the base's lower 3 layers, a faster judge;
# "l12" (7 to 12), a deeper judge whose added layers start as copies of the base's, stacked on
# top; "i12", the same with each layer's copy after itself;
# "kd3", the same with its attribution stage also taught by the shipped judge's probabilities,
# which travel as $PACKS/teacher.npz: training/teachers/support-verifier-attribution.npz, or
# after a change to the mix, the teacher.npz of a CPU run of that stage here with --teacher)
# "hc", the whole mix with the optional hard cases HARD_CASES (train --with-hard-cases), packed
# into $PACKS/attribution-hc.pack with the same option)
# trains the generic stage, then the attribution stage from its best weights,
# all variants at once on the one GPU (a kdN named beside lN shares lN's generic stage).
# RETURN_BEST=1 brings back only the round of the best held-out mean after the attribution
# stage (every variant's records still come back).
# GENERIC_ROUND (a round's folder, e.g. training/rounds/support-verifier) skips the generic
# stage: each variant's attribution stage starts from that round (then the base pack may be
# `base-pack --embeddings-only`, the one part of the encoder a round lacks). The
# final rounds come back split under 16 MiB a file (join them with cat), with every log and
# record in logs.tar.gz.
set -uo pipefail
PACKS=${PACKS:-.gpu}
OUT=${OUT:-build/gpu-out}
WORK=${WORK:-/tmp/verifier-gpu}
DEVICE=${DEVICE:-cuda}
VARIANTS=${VARIANTS:-"full commercial"}
GENERIC_MINUTES=${GENERIC_MINUTES:-6}
ATTRIBUTION_MINUTES=${ATTRIBUTION_MINUTES:-2}
SCALE=${SCALE:-1}  # the packs' --scale (a smoke run packs a small mix)
GENERIC_ROUND=${GENERIC_ROUND:-}
HARD_CASES=${HARD_CASES:-role_swaps=20000,name_changes=20000}
GENERIC_ARGS=${GENERIC_ARGS:-"--batch-size 128 --learning-rate 8e-5 --head-learning-rate 4e-4 --warmup-fraction 0.04 --epochs 3 --eval-steps 500 --eval-pairs 2000 --threads 4"}
ATTRIBUTION_ARGS=${ATTRIBUTION_ARGS:-"--batch-size 64 --learning-rate 3e-5 --epochs 2 --eval-steps 200 --eval-pairs 2000 --threads 4"}
mkdir -p "$OUT" "$WORK"
OUT=$(cd "$OUT" && pwd)  # the logs are packed from inside $WORK

stage() {  # variant stage minutes extra-args...
    local name=$1 stage=$2 minutes=$3 pack="$PACKS/$2.pack"
    shift 3
    [ "$name" = hc ] && [ "$stage" = attribution ] && pack="$PACKS/attribution-hc.pack"
    ${PYTHON:-python3} -u -m training train --stage "$stage" --pack "$pack" \
        --base-dir "$PACKS/base" --device "$DEVICE" --out "$WORK/$name/$stage" \
        --round "$WORK/$name/$stage-round" --budget-minutes "$minutes" --finish-at-budget --scale "$SCALE" "$@" \
        >>"$WORK/$name.log" 2>&1
}

variant() {
    local name=$1 flag="" teach="" only=""
    case "$name" in
    commercial) flag=--commercial-only ;;
    hc) only="--with-hard-cases $HARD_CASES" ;;  # the attribution stage's option
    l[1-9]*) flag="--layers ${name#l}" ;;  # above 6: a deeper judge, the base's layers stacked
    i[1-9]*) flag="--layers ${name#i} --grow interleave" ;;  # deeper, each layer copied after itself
    kd[1-9]*) flag="--layers ${name#kd}" teach="--teacher $PACKS/teacher.npz" ;;
    esac
    if [ -n "$teach" ] && [ ! -f "$PACKS/teacher.npz" ]; then  # before the generic stage's minutes
        echo "$name: no $PACKS/teacher.npz (the teacher's probabilities): not trained" >>"$WORK/$name.log"
        return 1
    fi
    local generic="$WORK/$name/generic-round"
    if [ -n "$GENERIC_ROUND" ]; then
        generic=$GENERIC_ROUND
        mkdir -p "$WORK/$name"
    elif [ -n "$teach" ] && [[ " $VARIANTS " == *" l${name#kd} "* ]]; then
        # kdN beside lN: the two differ only in their attribution stage, so kdN waits for lN's
        # generic stage (the GPU's whole time for one run) and starts from its weights
        generic="$WORK/l${name#kd}/generic-round"
        while [ ! -e "$WORK/l${name#kd}/generic.done" ]; do sleep 5; done
        if [ "$(cat "$WORK/l${name#kd}/generic.done")" != 0 ]; then
            echo "$name: l${name#kd}'s generic stage failed: not trained" >>"$WORK/$name.log"
            return 1
        fi
    else
        mkdir -p "$WORK/$name"
        # shellcheck disable=SC2086
        stage "$name" generic "$GENERIC_MINUTES" $GENERIC_ARGS $flag
        echo $? >"$WORK/$name/generic.done"
        [ "$(cat "$WORK/$name/generic.done")" = 0 ] || { echo "$name: generic stage failed" >>"$WORK/$name.log"; return 1; }
    fi
    # shellcheck disable=SC2086
    stage "$name" attribution "$ATTRIBUTION_MINUTES" $ATTRIBUTION_ARGS $flag $only $teach --init-round "$generic"
    echo "$name: exit $?" >>"$WORK/$name.log"
}

nvidia-smi --query-gpu=name,memory.used,memory.total --format=csv >"$WORK/gpu.txt" 2>&1
for name in $VARIANTS; do rm -f "$WORK/$name/generic.done"; done  # none left by an earlier run
for name in $VARIANTS; do variant "$name" & done
wait
keep="$VARIANTS"
if [ -n "${RETURN_BEST:-}" ]; then
    # only the round of the best held-out mean comes back (a call returns 64 MiB: one
    # twelve-layer round, 43 MB, or two of six layers)
    keep=$(${PYTHON:-python3} - "$WORK" $VARIANTS <<'PY'
import json, sys
work, names = sys.argv[1], sys.argv[2:]
means = {}
for name in names:
    try:
        record = json.load(open(f"{work}/{name}/attribution-round/round.json"))
        means[name] = record["state"]["best"]["mean"]
    except (OSError, KeyError, TypeError, ValueError):
        pass
print(max(means, key=means.__getitem__) if means else "")
PY
)
    echo "the best held-out mean: ${keep:-none}"
fi
for name in $VARIANTS; do
    tail -n 3 "$WORK/$name.log"
    weights="$WORK/$name/attribution-round/weights.fp16.safetensors"
    if [[ " $keep " == *" $name "* ]] && [ -f "$weights" ]; then
        split -b 15M -d "$weights" "$OUT/$name.weights.part"
    fi
done
(cd "$WORK" && tar czf "$OUT/logs.tar.gz" --exclude='*.safetensors' --exclude='*.pt' \
    --exclude='final' --exclude='base' ./*.log gpu.txt ./*/*/state.json ./*/*-round/round.json)
ls -la "$OUT"
