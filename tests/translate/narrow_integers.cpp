// Operators on tiles of integers narrower than int keep the interpreter's result type
// (promotion.h): with a literal, the tile's type (uint8 ^ 0x80 is uint8, and so is 1 << uint8);
// with another tile, the wider, or the unsigned one of the same width. C++ computes such
// operators in int: a result folded into a larger expression converts back to its type, so
// that it wraps where the interpreter's does and device functions see one type.
#include <tilec/tl.h>

TILEC_KERNEL void with_literals(const uint8_t* x, const int8_t* y, const uint16_t* z,
                                const int16_t* w, uint8_t* out_u8, int8_t* out_i8,
                                uint16_t* out_u16, int16_t* out_i16) {
  auto offs = tl::arange<0, 128>();
  auto a = tl::load(x + offs);
  auto b = tl::load(y + offs);
  auto c = tl::load(z + offs);
  auto d = tl::load(w + offs);
  auto flipped = a ^ 0x80;
  auto bit = 1 << (a & 7);
  auto halved = (b + 100) >> 1;
  auto low = (c * 3) & 0xff;
  auto inverted = ~d / 2;
  tl::store(out_u8 + offs, flipped + bit);
  tl::store(out_u8 + offs, tl::maximum(a + 1, a));
  tl::store(out_i8 + offs, halved);
  tl::store(out_u16 + offs, low);
  tl::store(out_i16 + offs, inverted);
}

TILEC_KERNEL void with_tiles(const uint8_t* x, const int8_t* y, const uint16_t* z,
                             const int16_t* w, uint8_t* out_u8, int8_t* out_i8,
                             uint16_t* out_u16, int16_t* out_i16, bool* flags) {
  auto offs = tl::arange<0, 128>();
  auto a = tl::load(x + offs);
  auto b = tl::load(y + offs);
  auto c = tl::load(z + offs);
  auto d = tl::load(w + offs);
  auto ab = a ^ b;
  auto bb = b * b;
  auto ac = a + c;
  auto ad = a | d;
  auto cd = c - d;
  auto shift = b << a;
  tl::store(out_u8 + offs, ab);
  tl::store(out_i8 + offs, bb);
  tl::store(out_u16 + offs, ac + cd);
  tl::store(out_i16 + offs, ad + shift);
  tl::store(flags + offs, (a + b) < (c - d));
}

// Scalars follow C++: -s and s ^ 0x80 are ints, and so is the tile they make with an int tile.
TILEC_KERNEL void scalar_operands(const int* x, int* out, uint8_t s) {
  auto offs = tl::arange<0, 128>();
  auto negated = -s;
  auto flipped = s ^ 0x80;
  tl::store(out + offs, tl::load(x + offs) + negated + flipped);
}

// IR-LABEL: kernel @with_literals<>
// IR:       = constant [128] : uint8_t
// IR-NEXT:  :flipped = binary "^" %{{[0-9]+}}:a, %{{[0-9]+}} : tile<uint8_t, 128>
// IR:       = constant [1] : uint8_t
// IR:       :bit = binary "<<" %{{[0-9]+}}, %{{[0-9]+}} : tile<uint8_t, 128>
// IR:       :halved = binary ">>" {{.*}} : tile<int8_t, 128>
// IR:       :low = binary "&" {{.*}} : tile<uint16_t, 128>
// IR:       :inverted = binary "/" {{.*}} : tile<int16_t, 128>
// IR-LABEL: kernel @with_tiles<>
// Unsigned at least as wide wins; a wider signed type wins.
// IR:       = cast %{{[0-9]+}}:b : tile<uint8_t, 128>
// IR-NEXT:  :ab = binary "^" {{.*}} : tile<uint8_t, 128>
// IR-NEXT:  :bb = binary "*" {{.*}} : tile<int8_t, 128>
// IR:       :ac = binary "+" {{.*}} : tile<uint16_t, 128>
// IR:       :ad = binary "|" {{.*}} : tile<int16_t, 128>
// IR:       :cd = binary "-" {{.*}} : tile<uint16_t, 128>
// A shift promotes both operands too: int8 << uint8 is uint8.
// IR:       :shift = binary "<<" {{.*}} : tile<uint8_t, 128>
// IR-LABEL: kernel @scalar_operands<>
// IR:       :negated = unary "-" %{{[0-9]+}} : int
// IR:       :flipped = binary "^" %{{[0-9]+}}, %{{[0-9]+}} : int

// CU-LABEL: with_literals(
// A materialized result converts where it is stored.
// CU:       flipped[i] = (a[i] ^ uint8_t(128));
// CU:       bit[i] = (uint8_t(1) << uint8_t(a[i] & uint8_t(7)));
// CU:       halved[i] = (int8_t(b[i] + int8_t(100)) >> int8_t(1));
// CU:       low[i] = (uint16_t(c[i] * uint16_t(3)) & uint16_t(255));
// CU:       inverted[i] = (int16_t(~d[i]) / int16_t(2));
// tilec::maximum deduces one type from both arguments.
// CU:       = tilec::maximum(uint8_t(a[i] + uint8_t(1)), a[i]);
// CU-LABEL: with_tiles(
// CU:       ab[i] = (a[i] ^ tilec::cast<uint8_t>(b[i]));
// CU:       bb[i] = (b[i] * b[i]);
// uint8 + int8 is uint8, uint16 - int16 is uint16; they compare as uint16.
// CU:       = (tilec::cast<uint16_t>(uint8_t(a[i] + tilec::cast<uint8_t>(b[i]))) < uint16_t(c[i] - tilec::cast<uint16_t>(d[i])));
// CU-LABEL: scalar_operands(
// CU:       const int negated = (-tilec::cast<int>(s));
// CU:       const int flipped = (tilec::cast<int>(s) ^ 128);
