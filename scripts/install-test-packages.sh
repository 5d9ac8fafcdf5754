#!/usr/bin/env bash
# Installs the Debian packages a test part needs, if missing: `slurm` (slurm-wlm, munge),
# `browser` (chromium). Usage: scripts/install-test-packages.sh slurm browser. Needs root or
# sudo and the Debian registry. scripts/test.sh runs it in the background while the Rust part
# compiles, so the downloads do not wait their turn; each part runs it again (a no-op by then).
set -euo pipefail
wanted=()
for part in "$@"; do
  case $part in
    slurm) command -v slurmctld >/dev/null && command -v munged >/dev/null || wanted+=(slurm-wlm munge) ;;
    browser) [ -x "${CHROMIUM:-/usr/bin/chromium}" ] || wanted+=(chromium) ;;
    *) echo "install-test-packages: no part '$part' (slurm, browser)" >&2; exit 2 ;;
  esac
done
[ ${#wanted[@]} -eq 0 ] && exit 0
sudo=()
if [ "$(id -u)" != 0 ]; then sudo=(sudo); fi
echo "installing ${wanted[*]}"
install() {
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${wanted[@]}" >/dev/null
}
# The package lists a machine comes with usually serve; refreshing them costs a minute.
install 2>/dev/null || { "${sudo[@]}" apt-get update -qq >/dev/null && install; }
