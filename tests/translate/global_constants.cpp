// Constants declared outside the kernel (constexpr and const globals of integer and floating
// type, enumerators of plain and scoped enums, a static constexpr member, a macro) are written
// into the kernel as their values: the generated .cu does not have the input file's
// declarations. --check compiles the result with NVRTC.
#include <tilec/tl.h>

constexpr int kScale = 3;
constexpr float kEps = 1e-5f;
const double kHalf = 0.5;
enum Mode { kAdd = 1, kMul = 2 };
enum class Shift : short { kBy = 4 };
struct Tuning {
  static constexpr int kBlockRows = 16;
};
#define OFFSET 7

template <int BLOCK>
TILEC_KERNEL void scale(const float *x, float *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto v = tl::load(x + offs, offs < n, 0.0f);
  int shift = int(Shift::kBy) + Tuning::kBlockRows;
  tl::store(out + offs, v * kScale + kEps + int(kMul) * kHalf + OFFSET + shift, offs < n);
}

// Folded with the conversions around them: kScale to float, int(kMul) to double.
// IR-LABEL: kernel @scale
// IR:       = constant [4] : int
// IR-NEXT:  = constant [16] : int
// IR:       = constant [3.0f] : float
// IR:       = constant [1e-05f] : float
// IR:       = constant [2.0] : double
// IR-NEXT:  = constant [0.5] : double
// IR:       = constant [7.0f] : float

// CU-LABEL: scale(
// CU:       const int shift = (4 + 16);
// CU:       = (((((v[i] * 3.0f) + 1e-05f) + tilec::cast<float>((2.0 * 0.5))) + 7.0f) + tilec::cast<float>(shift));
