// file_util.h - whole-file reads and crash-safe writes for the disk cache.
#pragma once

#include <string>

namespace tilec::detail {

/// Reads the whole file; false if it cannot be opened or read.
bool read_file(const std::string &path, std::string &out);

/// Reads an open descriptor to its end; false on a read error.
bool read_all(int fd, std::string &out);

/// Writes `data` (mode 0600) to a temporary file in the same folder, fsyncs it and renames it over
/// `path`, so readers see the old file or the complete new one, never a partial one.
/// Returns false (leaving no temporary file behind) on any failure.
bool write_file_atomically(const std::string &path, const std::string &data);

} // namespace tilec::detail
