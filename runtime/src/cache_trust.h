// cache_trust.h - who may have written a cache file. The disk cache loads cubins and
// autotuning choices that run with the user's rights, so it only trusts folders it made
// private and files only the user could have written.
#pragma once

#include <string>

namespace tilec::detail {

/// Creates `dir` and every missing folder above it with mode 0700 (whatever the umask).
/// Folders that already exist keep their mode: a folder the user chose is theirs to set;
/// one that is group- or world-writable gets one warning per process (warn_if_shared).
/// False, with the system's reason in `why`, when a folder cannot be made.
bool make_private_dirs(const std::string &dir, std::string &why);

/// Prints one warning per folder and process when `dir` exists and is writable by its
/// group or by others (other users could then replace entries; those are refused, but the
/// folder should not allow it).
void warn_if_shared(const std::string &dir);

enum class TrustedRead { Missing, Ok, Refused };

/// Reads `path` only if it is a regular file owned by the current user and not writable by
/// its group or by others; otherwise prints one line naming the file, the reason and what
/// to do, and returns Refused (the caller recompiles and replaces it). Unreadable files are
/// Missing, as before.
TrustedRead read_trusted_file(const std::string &path, std::string &out);

} // namespace tilec::detail
