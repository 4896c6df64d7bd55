// A helper found only through -I (tests/translate/include), for translate.options*.
#pragma once
#include <tilec/tl.h>

TILEC_FUNC auto scaled(auto t) { return t * SCALE; }
