#include "scenarios/loader/utf8.hpp"

#include <doctest/doctest.h>

using namespace partsim::scenarios;

TEST_CASE("UTF-8 validity follows RFC 3629: no overlong forms, surrogates or code points above U+10FFFF") {
  CHECK(is_valid_utf8(""));
  CHECK(is_valid_utf8("plain ascii"));
  CHECK(is_valid_utf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x93\xa6 \xf4\x8f\xbf\xbf"));  // é € 📦 U+10FFFF
  CHECK_FALSE(is_valid_utf8("\xff"));
  CHECK_FALSE(is_valid_utf8("\xc3"));              // truncated
  CHECK_FALSE(is_valid_utf8("\xc0\xaf"));          // overlong '/'
  CHECK_FALSE(is_valid_utf8("\xe0\x80\xaf"));      // overlong, 3 bytes
  CHECK_FALSE(is_valid_utf8("\xed\xa0\x80"));      // surrogate U+D800
  CHECK_FALSE(is_valid_utf8("\xf4\x90\x80\x80"));  // U+110000
  CHECK_FALSE(is_valid_utf8("\xe2\x82"));          // truncated 3-byte
  CHECK_FALSE(is_valid_utf8("a\x80"));             // lone continuation byte
}

TEST_CASE("printable keeps valid text and shows other bytes as \\xNN, cut with ...") {
  CHECK(printable("caf\xc3\xa9") == "caf\xc3\xa9");
  CHECK(printable("t\xff") == "t\\xFF");
  CHECK(printable("a\tb\x7f") == "a\\x09b\\x7F");
  CHECK(printable(std::string(100, 'x'), 10) == "xxxxxxx...");
  CHECK(printable(std::string(10, 'x'), 10) == "xxxxxxxxxx");
}
