#!/usr/bin/env bash
# setup.sh - install what a fresh Debian 12, Ubuntu 22.04 or Ubuntu 24.04 machine lacks to build
# and test tilec. Packages already installed are skipped; sudo is used only when not running as
# root. The CUDA toolkit (nvcc, NVRTC) is expected under /usr/local/cuda (or $CUDA_HOME).
set -euo pipefail

# shellcheck disable=SC1091
[[ -r /etc/os-release ]] && . /etc/os-release
case "${ID:-}:${VERSION_ID:-}" in
debian:12 | ubuntu:22.04 | ubuntu:24.04) ;;
*) echo "setup: ${PRETTY_NAME:-this system} is not Debian 12 or Ubuntu 22.04/24.04; trying anyway" ;;
esac

sudo=()
if [[ $(id -u) -ne 0 ]]; then
  sudo=(sudo)
fi
as_root() {
  if ((${#sudo[@]})) && ! command -v sudo >/dev/null; then
    echo "setup: not root and no sudo; run as root: $*" >&2
    exit 1
  fi
  "${sudo[@]}" "$@"
}
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

# The translator builds with LLVM/Clang 18, 19 or 20 (cmake/TilecLLVM.cmake); 19 first, the
# version CI uses. Keep the one already installed; else the first the package lists offer.
SUPPORTED_LLVM=(19 20 18)
llvm_packages() { echo "libclang-$1-dev libclang-cpp$1-dev clang-$1 llvm-$1-dev llvm-$1-tools"; }
llvm=""
for v in "${SUPPORTED_LLVM[@]}"; do
  all=1
  for pkg in $(llvm_packages "$v"); do installed "$pkg" || all=0; done
  if ((all)); then
    llvm=$v
    break
  fi
done
updated=0
if [[ -z $llvm ]]; then
  # A fresh machine has empty package lists; refresh them once before choosing.
  as_root apt-get update
  updated=1
  for v in "${SUPPORTED_LLVM[@]}"; do
    if apt-cache show "llvm-$v-dev" "libclang-cpp$v-dev" >/dev/null 2>&1; then
      llvm=$v
      break
    fi
  done
fi
if [[ -z $llvm ]]; then
  codename=${VERSION_CODENAME:-<codename>}
  cat >&2 <<MSG
setup: this distribution's package lists have no LLVM/Clang 18, 19 or 20 (Ubuntu 22.04's stop
       at 15). Add the LLVM project's repository for your release, then run this again:
         wget -qO- https://apt.llvm.org/llvm-snapshot.gpg.key | sudo tee /etc/apt/trusted.gpg.d/apt.llvm.org.asc
         echo "deb http://apt.llvm.org/$codename/ llvm-toolchain-$codename-19 main" | sudo tee /etc/apt/sources.list.d/llvm-19.list
MSG
  exit 1
fi

# shellcheck disable=SC2207
# libclang-rt-N-dev: the sanitizers and libFuzzer (scripts/sanitize.sh); python3: the
# robustness corpus (tests/robustness/corpus).
PACKAGES=($(llvm_packages "$llvm") clang-format-"$llvm" libclang-rt-"$llvm"-dev
  libboost-program-options-dev ninja-build cmake g++ libgtest-dev python3
  # The PyTorch adapter's tests (tilec/torch.h, examples/torch): LibTorch and torch for
  # Python 3, CPU only (about 50 MB to download).
  libtorch-dev python3-torch)

missing=()
for pkg in "${PACKAGES[@]}"; do
  installed "$pkg" || missing+=("$pkg")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  ((updated)) || as_root apt-get update
  as_root env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${missing[@]}"
else
  echo "setup: all packages present"
fi
echo "setup: LLVM/Clang $llvm"

# CMake 3.24 or newer (CMakeLists.txt says why); Ubuntu 22.04 ships 3.22.
cmake_version=$(cmake --version | head -1 | grep -o '[0-9][0-9.]*' | head -1)
if [[ $(printf '%s\n3.24\n' "$cmake_version" | sort -V | head -1) != 3.24 ]]; then
  echo "setup: CMake $cmake_version is older than 3.24, which tilec needs. Install a newer one" >&2
  echo "       (Kitware's apt repository, https://apt.kitware.com, or 'pip install cmake')." >&2
  exit 1
fi

cuda=${CUDA_HOME:-/usr/local/cuda}
if [[ ! -x $cuda/bin/nvcc ]] || ! ls "$cuda"/lib64/libnvrtc.so* >/dev/null 2>&1; then
  echo "setup: the CUDA toolkit (nvcc and NVRTC) was not found in $cuda." >&2
  echo "       Install CUDA 12.x/13.x there, or set CUDA_HOME to its folder." >&2
  exit 1
fi
echo "setup: CUDA toolkit at $cuda ($("$cuda"/bin/nvcc --version | grep -o 'release [0-9.]*'))"
