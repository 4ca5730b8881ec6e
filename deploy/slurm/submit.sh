#!/bin/bash
# Submits a sharded NestEgg build to Slurm: the census (an array of N tasks), the shares (an array
# of N tasks, once every census task has succeeded) and the merge (once every share has), chained
# with --dependency=afterok. N and the paths are in nestegg.env (or the file given as $1).
# Prints the three job ids, one a line: census, shares, merge.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export NESTEGG_ENV=$(realpath "${1:-$here/nestegg.env}")
source "$NESTEGG_ENV"
[[ "$NESTEGG_SHARDS" =~ ^[1-9][0-9]*$ ]] || { echo "submit.sh: NESTEGG_SHARDS=$NESTEGG_SHARDS is not a number of shares" >&2; exit 64; }
mkdir -p "$NESTEGG_WORK/logs"
array="--array=0-$((NESTEGG_SHARDS - 1))"
# A step that fails cancels those after it (--kill-on-invalid-dep), instead of leaving them pending.
# The logs go to $NESTEGG_WORK/logs/JOBNAME-JOBID_TASK.out (the merge's JOBNAME-JOBID.out).
read -r -a extra <<< "$NESTEGG_SBATCH_OPTIONS"
common=(--parsable --kill-on-invalid-dep=yes --export=ALL "${extra[@]}")
tasks="--output=$NESTEGG_WORK/logs/%x-%A_%a.out"
census=$(sbatch "${common[@]}" "$array" "$tasks" "$here/census.sbatch")
shares=$(sbatch "${common[@]}" "$array" "$tasks" --dependency="afterok:${census%%;*}" "$here/shares.sbatch")
merge=$(sbatch "${common[@]}" --output="$NESTEGG_WORK/logs/%x-%j.out" --dependency="afterok:${shares%%;*}" "$here/merge.sbatch")
printf '%s\n' "${census%%;*}" "${shares%%;*}" "${merge%%;*}"
