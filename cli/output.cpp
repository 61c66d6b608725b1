#include "cli/output.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

#include <fcntl.h>
#include <unistd.h>

namespace partsim::cli {

void write_stdout(std::string_view data) {
  if (!data.empty() && std::fwrite(data.data(), 1, data.size(), stdout) != data.size())
    throw std::runtime_error(std::string("cannot write to standard output: ") + std::strerror(errno));
  if (std::fflush(stdout) != 0)
    throw std::runtime_error(std::string("cannot write to standard output: ") + std::strerror(errno));
}

void write_stdout_when_full(std::string& buf) {
  if (buf.size() < (std::size_t{1} << 20)) return;
  write_stdout(buf);
  buf.clear();
}

AtomicFile::AtomicFile(std::string path)
    : path_(std::move(path)), tmp_(path_ + ".tmp." + std::to_string(::getpid())), guard_(tmp_) {
  fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    guard_.release();
    throw std::runtime_error(path_ + ": cannot create: " + std::strerror(errno));
  }
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) {
    ::close(fd_);
    ::unlink(tmp_.c_str());
  }
}

void AtomicFile::fail(const std::string& what) {
  const std::string why = std::strerror(errno);
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  ::unlink(tmp_.c_str());
  throw std::runtime_error(path_ + ": " + what + ": " + why);
}

void AtomicFile::write(std::string_view data) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd_, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("cannot write");
    }
    done += static_cast<std::size_t>(n);
  }
}

void AtomicFile::commit() {
  if (::fsync(fd_) != 0) fail("cannot write");
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp_.c_str());
    throw std::runtime_error(path_ + ": cannot write: " + why);
  }
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp_.c_str());
    throw std::runtime_error(path_ + ": cannot rename into place: " + why);
  }
}

void write_file_atomically(const std::string& path, std::string_view data) {
  AtomicFile f(path);
  f.write(data);
  f.commit();
}

}  // namespace partsim::cli
