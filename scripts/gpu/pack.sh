#!/usr/bin/env bash
# Prepares the carried folder of the GPU checks (.gpu/, ignored by git) on this Debian 12 machine:
#   .gpu/debs/              the Debian packages whose headers and libraries brec's build needs,
#                           and the libraries those link (libnauty2 needs libcliquer1): the device
#                           machine has PyTorch, CMake, ninja and gcc, but no Debian -dev package
#                           and no network; unpacked there with dpkg -x
#   .gpu/ppgn_reference.py  the PPGN reference pipeline (../shared/reference), patched with a
#                           --device option, for the side-by-side stage
# Then: device run --carry .gpu --timeout 600 --command 'bash scripts/gpu/proofs.sh' (both checks)
#
#   bash scripts/gpu/pack.sh                 # ../shared beside the repository
#   SHARED=/path/to/shared bash scripts/gpu/pack.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
SHARED="${SHARED:-../shared}"
OUT=.gpu
PACKAGES=(libboost1.74-dev libeigen3-dev libnauty2-dev libnauty2 libcliquer1 libsvm-dev libsvm3 libcli11-dev
  nlohmann-json3-dev libgtest-dev libssl-dev libssl3)

rm -rf "$OUT" && mkdir -p "$OUT/debs"
(cd "$OUT/debs" && apt-get download "${PACKAGES[@]}" 2>&1 | grep -v "^W: Download is performed unsandboxed" || true)
for p in "${PACKAGES[@]}"; do
  ls "$OUT/debs/${p}_"*.deb >/dev/null 2>&1 || { echo "pack: apt-get download got no $p" >&2; exit 2; }
done

# The reference runs on the CPU only; the patch moves its model and batches to --device (its
# random draws stay where they were: the model is built on the CPU, then moved).
python3 - "$SHARED/reference/ppgn_reference.py" "$OUT/ppgn_reference.py" <<'PY'
import sys
src, dst = sys.argv[1], sys.argv[2]
text = open(src).read()
edits = [
    ('ap.add_argument("--threads", type=int, default=2)',
     'ap.add_argument("--threads", type=int, default=2)\n    ap.add_argument("--device", type=str, default="cpu")'),
    ("    torch.set_num_threads(a.threads)\n", "    torch.set_num_threads(a.threads)\n    global DEVICE\n    DEVICE = torch.device(a.device)\n"),
    ("        model = PPGN()\n", "        model = PPGN().to(DEVICE)\n"),
    ("    y = torch.tensor([-1] * (BATCH_SIZE // 2))\n", "    y = torch.tensor([-1] * (BATCH_SIZE // 2)).to(DEVICE)\n"),
    ("                pred = model(batch)\n", "                pred = model(batch.to(DEVICE))\n"),
    ("            pred = model(data).detach()\n", "            pred = model(data.to(DEVICE)).detach()\n"),
    ("def run(ids, data, log):\n", "DEVICE = torch.device(\"cpu\")\n\n\ndef run(ids, data, log):\n"),
]
for old, new in edits:
    if text.count(old) != 1:
        sys.exit(f"pack: the reference changed: {old.strip()!r} occurs {text.count(old)} times")
    text = text.replace(old, new)
open(dst, "w").write(text)
PY

size=$(du -sm "$OUT" | cut -f1)
echo "pack: $OUT holds $(ls "$OUT/debs" | wc -l) packages and the patched reference, ${size} MiB (the carry limit is 64 MiB with the tree)"
