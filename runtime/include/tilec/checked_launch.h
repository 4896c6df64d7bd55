// tilec/checked_launch.h - the interpreter's checked mode, on the host side: buffers whose
// extents the caller gives, so that every element a kernel touches outside them is an error.
//
//   tilec::interpret::launch(add_kernel<1024>, grid, tilec::interpret::checked(x, "x"),
//                            tilec::interpret::checked(y, "y"), checked(out, "out"), n);
//
// checked(container or span, name) or checked(pointer, count, name) stands for a pointer
// argument. For the launch, each buffer is copied into a private allocation with guard
// zones before and after it (each as large as the buffer, at least 4 KiB), the kernel gets
// the copy, and buffers of non-const elements are copied back afterwards (also when the
// kernel throws). An address in a guard zone belongs to that buffer alone, whatever lies
// next to the caller's allocation, so tl::load/store/atomic can say exactly which buffer
// and element a forgotten mask ran into (tl/bounds.h). Pointer arguments passed plainly
// are not checked.
#pragma once

#include <tilec/tl/bounds.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace tilec::interpret {

/// A pointer argument with its extent, for a checked launch.
template <class T> struct checked_buffer {
  T *data = nullptr;
  size_t count = 0;
  const char *name = nullptr; ///< in error messages; "argument <k>" when null
};

/// `count` elements at `data`.
template <class T> checked_buffer<T> checked(T *data, size_t count, const char *name = nullptr) {
  return {data, count, name};
}

/// The elements of a contiguous container or span (std::vector, std::array, std::span):
/// const containers give pointers to const.
template <class C>
  requires requires(C &&c) {
    std::data(c);
    std::size(c);
  }
auto checked(C &&c, const char *name = nullptr) {
  return checked(std::data(c), std::size(c), name);
}

namespace detail {

template <class A> struct checked_arg : std::false_type {
  using passed = A;
};
template <class T> struct checked_arg<checked_buffer<T>> : std::true_type {
  using passed = T *;
};

template <class A> inline constexpr bool is_checked_v = checked_arg<std::remove_cvref_t<A>>::value;

/// What the kernel receives for launch argument A: T* for a checked_buffer<T>, else A.
template <class A>
using passed_t =
    std::conditional_t<is_checked_v<A>, typename checked_arg<std::remove_cvref_t<A>>::passed, A>;

/// The private copies of one checked launch; registers them with tl/bounds.h while alive.
class checked_session {
public:
  checked_session() = default;
  checked_session(const checked_session &) = delete;
  checked_session &operator=(const checked_session &) = delete;

  ~checked_session() {
    tl::detail::checked_regions() = saved_;
    for (const copy &c : copies_)
      if (c.writable && c.bytes) // an empty buffer may be a null pointer
        std::memcpy(c.user, c.data, c.bytes);
  }

  /// Plain arguments pass through unchanged.
  template <class A>
    requires(!is_checked_v<A>)
  A &pass(A &arg, int) {
    return arg;
  }

  /// A checked buffer passes as a pointer to its private copy.
  template <class T> T *pass(const checked_buffer<T> &b, int position) {
    return static_cast<T *>(add(const_cast<std::remove_const_t<T> *>(b.data), b.count, sizeof(T),
                                !std::is_const_v<T>,
                                b.name ? b.name : "argument " + std::to_string(position)));
  }

  /// Makes the copies visible to the kernel's loads and stores (after every argument).
  void activate() {
    saved_ = tl::detail::checked_regions();
    tl::detail::checked_regions() = &regions_;
  }

private:
  struct copy {
    std::unique_ptr<std::byte[]> storage;
    std::byte *data = nullptr;
    void *user = nullptr;
    size_t bytes = 0;
    bool writable = false;
  };

  void *add(void *user, size_t count, size_t elem_size, bool writable, const std::string &name) {
    const size_t bytes = count * elem_size;
    const auto lo = reinterpret_cast<uintptr_t>(user), hi = lo + bytes;
    for (size_t i = 0; i < copies_.size(); ++i) {
      copy &c = copies_[i];
      const auto clo = reinterpret_cast<uintptr_t>(c.user), chi = clo + c.bytes;
      if (lo == clo && bytes == c.bytes) { // one buffer passed twice (in place): one copy
        c.writable = c.writable || writable;
        return c.data;
      }
      if (lo < chi && clo < hi)
        throw std::invalid_argument(
            "tilec::interpret::checked: buffers '" + regions_[i].name + "' and '" + name +
            "' overlap without being the same buffer; check one of them, or pass both whole");
    }
    // Guard zones as large as the buffer: an offset computed for it, however wrong, that
    // stays within one buffer length lands in its own zone and is reported against it.
    const size_t guard = (std::max<size_t>(bytes, 4096) + 63) / 64 * 64;
    copy c;
    c.storage.reset(new std::byte[guard + bytes + guard]);
    c.data = c.storage.get() + guard;
    c.user = user;
    c.bytes = bytes;
    c.writable = writable;
    if (bytes)
      std::memcpy(c.data, user, bytes);
    tl::detail::checked_region r;
    r.begin = reinterpret_cast<uintptr_t>(c.data);
    r.end = r.begin + bytes;
    r.guard_begin = r.begin - guard;
    r.guard_end = r.end + guard;
    r.elem_size = elem_size;
    r.count = count;
    r.name = name;
    copies_.push_back(std::move(c));
    regions_.push_back(std::move(r));
    return copies_.back().data;
  }

  std::vector<copy> copies_;
  std::vector<tl::detail::checked_region> regions_;
  const std::vector<tl::detail::checked_region> *saved_ = nullptr;
};

} // namespace detail
} // namespace tilec::interpret
