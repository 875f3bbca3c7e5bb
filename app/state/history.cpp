#include "state/history.h"

namespace lagrange::app {

void History::push(const Sample& sample) {
  if (size_ < data_.size()) {
    data_[(start_ + size_) % data_.size()] = sample;
    ++size_;
  } else {
    data_[start_] = sample;
    start_ = (start_ + 1) % data_.size();
  }
}

}  // namespace lagrange::app
