#!/bin/sh
# The Kubernetes manifests of deploy/kubernetes/, as run.sh renders them from nestegg.env, validated
# against the schemas of the oldest Kubernetes they support (1.29, README.md there) and of the newest
# that PyPI's kubernetes-validate bundles (its default), strictly (no unknown field). Installs
# kubernetes-validate with pip when missing.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
python=${PYTHON:-python3}
if ! command -v kubernetes-validate >/dev/null; then
    echo "kubernetes_test: installing kubernetes-validate (pip)"
    $python -m pip install -q kubernetes-validate || $python -m pip install -q --break-system-packages kubernetes-validate
fi
oldest=1.29.0
newest=$(kubernetes-validate --help | sed -n 's/.*Defaults to \([0-9.]*\).*/\1/p' | tr -d '\n')
rendered=$(mktemp)
trap 'rm -f "$rendered"' EXIT
"$root/deploy/kubernetes/run.sh" render 20260101-000000 > "$rendered"
for version in "$oldest" "${newest%.}"; do
    if ! out=$(kubernetes-validate --strict --quiet -k "$version" "$rendered" 2>&1); then
        echo "kubernetes_test: FAILED against Kubernetes $version:"; echo "$out"; exit 1
    fi
    echo "kubernetes_test: $(grep -c '^kind:' "$rendered") manifests valid against Kubernetes $version"
done
