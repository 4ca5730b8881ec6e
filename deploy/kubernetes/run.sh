#!/bin/sh
# Runs a sharded NestEgg build on Kubernetes in order — census, shares, merge — each Job applied
# once the one before it has completed, with the values of nestegg.env (N, the image) written into
# the manifests. Needs kubectl with a context and namespace (kubectl config set-context --current
# --namespace=…). See README.md.
#
#   run.sh storage          create the volumes (storage.yaml) and the web server (serve.yaml), once
#   run.sh load DIR         copy the data folder DIR onto the data volume
#   run.sh build            a new run: census, shares, merge; prints its name (RUN)
#   run.sh share RUN K      build share K of run RUN again (after its index failed), then merge RUN
#   run.sh merge RUN        merge run RUN again
#   run.sh render [RUN]     print the manifests of a run (what `build` applies), without kubectl
#
# NESTEGG_ENV names another env file (default: nestegg.env beside this script).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "${NESTEGG_ENV:-$here/nestegg.env}"
case "$NESTEGG_SHARDS" in ''|*[!0-9]*|0*) echo "run.sh: NESTEGG_SHARDS=$NESTEGG_SHARDS is not a number of shares" >&2; exit 64;; esac

# The manifest $1 with ${NESTEGG_…} replaced (run $2, share $3, attempt $4).
render() {
    sed -e "s|\${NESTEGG_SHARDS}|$NESTEGG_SHARDS|g" -e "s|\${NESTEGG_IMAGE}|$NESTEGG_IMAGE|g" -e "s|\${NESTEGG_TTL}|$NESTEGG_TTL|g" \
        -e "s|\${NESTEGG_RUN}|${2:-}|g" -e "s|\${NESTEGG_SHARE}|${3:-}|g" -e "s|\${NESTEGG_ATTEMPT}|${4:-}|g" "$here/$1"
}

# Waits for Job $1 to complete; fails naming its failed indexes and how to re-run them.
wait_job() {
    echo "run.sh: waiting for job/$1" >&2
    while :; do
        conditions=$(kubectl get job "$1" -o jsonpath='{range .status.conditions[?(@.status=="True")]}{.type}{" "}{end}')
        case " $conditions " in
            *" Complete "*) return 0 ;;
            *" Failed "*)
                failed=$(kubectl get job "$1" -o jsonpath='{.status.failedIndexes}')
                echo "run.sh: job/$1 failed${failed:+ (indexes $failed)}: kubectl logs job/$1" >&2
                [ -n "$failed" ] && [ -n "${2:-}" ] && echo "run.sh: re-run each failed share K with: $0 share $2 K" >&2
                return 1 ;;
        esac
        sleep 5
    done
}

case "${1:-}" in
    storage)
        kubectl apply -f "$here/storage.yaml" -f "$here/serve.yaml" ;;
    load)
        [ -d "${2:-}" ] || { echo "usage: run.sh load DIR" >&2; exit 64; }
        render data-loader.yaml | kubectl apply -f -
        kubectl wait --for=condition=Ready pod/nestegg-data-loader --timeout=300s
        kubectl cp "$2/." nestegg-data-loader:/data/
        kubectl delete pod nestegg-data-loader --wait=false ;;
    build)
        run=$(date -u +%Y%m%d-%H%M%S)
        echo "$run"
        render census.yaml "$run" | kubectl apply -f -
        wait_job "nestegg-census-$run"
        render shares.yaml "$run" | kubectl apply -f -
        wait_job "nestegg-shares-$run" "$run"
        render merge.yaml "$run" | kubectl apply -f -
        wait_job "nestegg-merge-$run" ;;
    share)
        [ -n "${2:-}" ] && [ -n "${3:-}" ] || { echo "usage: run.sh share RUN K" >&2; exit 64; }
        attempt=$(date -u +%H%M%S)
        render share.yaml "$2" "$3" "$attempt" | kubectl apply -f -
        wait_job "nestegg-share-$2-$3-$attempt"
        echo "run.sh: share $3 of run $2 built; now: $0 merge $2 (once every failed share is)" >&2 ;;
    merge)
        [ -n "${2:-}" ] || { echo "usage: run.sh merge RUN" >&2; exit 64; }
        kubectl delete job "nestegg-merge-$2" --ignore-not-found
        render merge.yaml "$2" | kubectl apply -f -
        wait_job "nestegg-merge-$2" ;;
    render)
        run=${2:-RUN}
        for manifest in storage.yaml serve.yaml data-loader.yaml census.yaml shares.yaml merge.yaml; do
            echo "---"; render "$manifest" "$run"
        done
        echo "---"; render share.yaml "$run" 0 000000 ;;
    *)
        sed -n '2,14s/^# \{0,1\}//p' "$0" >&2; exit 64 ;;
esac
