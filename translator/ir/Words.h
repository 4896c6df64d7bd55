// Whole-word search and replace in C++ text (identifiers, not parts of longer ones).
#pragma once

#include <cctype>
#include <string>

namespace tilec {

inline bool isIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

/// Position of `word` in `text` at or after `from` as a whole identifier, or npos.
inline size_t findWord(const std::string &text, const std::string &word, size_t from = 0) {
  for (size_t at = text.find(word, from); at != std::string::npos; at = text.find(word, at + 1))
    if ((at == 0 || !isIdentifierChar(text[at - 1])) &&
        (at + word.size() == text.size() || !isIdentifierChar(text[at + word.size()])))
      return at;
  return std::string::npos;
}

inline bool containsWord(const std::string &text, const std::string &word) {
  return findWord(text, word) != std::string::npos;
}

/// `text` with every whole-word `word` replaced by `by`.
inline std::string replaceWord(std::string text, const std::string &word, const std::string &by) {
  for (size_t at = findWord(text, word); at != std::string::npos;
       at = findWord(text, word, at + by.size())) {
    text.replace(at, word.size(), by);
  }
  return text;
}

/// Whether `pred(word)` holds for every identifier in the C++ text `text` (numbers, their
/// suffixes included, are not identifiers).
template <class Pred> bool allIdentifiers(const std::string &text, Pred pred) {
  for (size_t i = 0; i < text.size();) {
    if (!isIdentifierChar(text[i]) || std::isdigit(static_cast<unsigned char>(text[i]))) {
      for (++i; i < text.size() && isIdentifierChar(text[i - 1]) && isIdentifierChar(text[i]);)
        ++i; // the rest of a number
      continue;
    }
    size_t end = i;
    while (end < text.size() && isIdentifierChar(text[end]))
      ++end;
    if (!pred(text.substr(i, end - i)))
      return false;
    i = end;
  }
  return true;
}

} // namespace tilec
