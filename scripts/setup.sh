#!/usr/bin/env bash
# setup.sh - install what a fresh Debian 12 machine lacks to build and test tilec.
# Packages already installed are skipped; sudo is used only when not running as root.
# The CUDA toolkit (nvcc, NVRTC) is expected under /usr/local/cuda (or $CUDA_HOME).
set -euo pipefail

# libclang-rt-19-dev: the sanitizers and libFuzzer (scripts/sanitize.sh); python3: the
# robustness corpus (tests/robustness/corpus).
PACKAGES=(libclang-19-dev libclang-cpp19-dev clang-19 llvm-19-dev llvm-19-tools
  libclang-rt-19-dev libboost-program-options-dev clang-format-19 ninja-build cmake g++
  libgtest-dev python3)

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "setup: not root and no sudo; install: ${missing[*]}" >&2; exit 1; }
    sudo=(sudo)
  fi
  # A fresh machine has empty package lists; refresh them once before installing.
  "${sudo[@]}" apt-get update
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${missing[@]}"
else
  echo "setup: all packages present"
fi

cuda=${CUDA_HOME:-/usr/local/cuda}
if [[ ! -x $cuda/bin/nvcc ]] || ! ls "$cuda"/lib64/libnvrtc.so* >/dev/null 2>&1; then
  echo "setup: the CUDA toolkit (nvcc and NVRTC) was not found in $cuda." >&2
  echo "       Install CUDA 12.x/13.x there, or set CUDA_HOME to its folder." >&2
  exit 1
fi
echo "setup: CUDA toolkit at $cuda ($("$cuda"/bin/nvcc --version | grep -o 'release [0-9.]*'))"
