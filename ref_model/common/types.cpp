// SPDX-License-Identifier: Apache-2.0
#include "ref_model/common/types.hpp"

#include <ostream>

namespace ni {

const char* to_string(Kind k) {
  switch (k) {
    case Kind::Tid:
      return "tid";
    case Kind::OneFid:
      return "1x";
    case Kind::FourFid:
      return "4x";
    case Kind::Inline:
      return "inline";
  }
  return "?";
}

const char* to_string(Status s) {
  switch (s) {
    case Status::Idle:
      return "IDLE";
    case Status::Busy:
      return "BUSY";
    case Status::Done:
      return "DONE";
    case Status::Error:
      return "ERROR";
  }
  return "?";
}

std::optional<Kind> kind_from_string(const std::string& s) {
  for (Kind k : {Kind::Tid, Kind::OneFid, Kind::FourFid, Kind::Inline}) {
    if (s == to_string(k)) return k;
  }
  return std::nullopt;
}

std::ostream& operator<<(std::ostream& os, Kind k) { return os << to_string(k); }
std::ostream& operator<<(std::ostream& os, Status s) { return os << to_string(s); }

std::optional<Status> status_from_string(const std::string& s) {
  for (Status st : {Status::Idle, Status::Busy, Status::Done, Status::Error}) {
    if (s == to_string(st)) return st;
  }
  return std::nullopt;
}

}  // namespace ni
