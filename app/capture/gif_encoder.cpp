#include "capture/gif_encoder.h"

#include <gif_lib.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <new>
#include <vector>

namespace lagrange::video {
namespace {

// Pixels as 0xRRGGBB (alpha is dropped: a GIF has none, and the window is opaque).
inline std::uint32_t pack(const std::uint8_t* p) {
  return std::uint32_t(p[0]) << 16 | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]);
}
inline int red(std::uint32_t c) { return static_cast<int>(c >> 16 & 0xFF); }
inline int green(std::uint32_t c) { return static_cast<int>(c >> 8 & 0xFF); }
inline int blue(std::uint32_t c) { return static_cast<int>(c & 0xFF); }
inline int channel(std::uint32_t c, int axis) { return static_cast<int>(c >> (16 - 8 * axis) & 0xFF); }

// The colours of one frame's changed pixels and how often each occurs; then, per colour, its palette index. Open
// addressing (linear probing) over 24-bit keys; cleared through the list of used slots, so a frame with few colours
// costs little whatever the table's size.
class ColourTable {
 public:
  struct Slot {
    std::uint32_t key = kEmpty;
    std::uint32_t count = 0;
    int index = 0;  // the palette index
  };
  static constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;

  ColourTable() { resize(1 << 12); }

  void clear() {
    for (std::uint32_t at : used_) slots_[at] = Slot{};
    used_.clear();
  }
  std::size_t size() const { return used_.size(); }
  const std::vector<std::uint32_t>& used() const { return used_; }
  Slot& slot(std::uint32_t at) { return slots_[at]; }

  // The slot of `key`, made if new.
  Slot& add(std::uint32_t key) {
    std::uint32_t at = hash(key);
    while (slots_[at].key != key) {
      if (slots_[at].key == kEmpty) {
        if (2 * (used_.size() + 1) > slots_.size()) {
          grow();
          return add(key);
        }
        slots_[at].key = key;
        used_.push_back(at);
        break;
      }
      at = (at + 1) & mask_;
    }
    return slots_[at];
  }
  // The slot of a key that is in the table.
  Slot& find(std::uint32_t key) {
    std::uint32_t at = hash(key);
    while (slots_[at].key != key) at = (at + 1) & mask_;
    return slots_[at];
  }

 private:
  std::uint32_t hash(std::uint32_t key) const { return (key * 0x9E3779B1u) >> shift_ & mask_; }
  void resize(std::size_t capacity) {
    slots_.assign(capacity, Slot{});
    mask_ = static_cast<std::uint32_t>(capacity - 1);
    shift_ = 32;
    for (std::size_t c = capacity; c > 1; c >>= 1) --shift_;
  }
  void grow() {
    std::vector<Slot> old;
    old.reserve(used_.size());
    for (std::uint32_t at : used_) old.push_back(slots_[at]);
    resize(slots_.size() * 2);
    used_.clear();
    for (const Slot& s : old) add(s.key) = s;
  }

  std::vector<Slot> slots_;
  std::vector<std::uint32_t> used_;
  std::uint32_t mask_ = 0, shift_ = 0;
};

struct Entry {
  std::uint32_t colour, count;
};

// Median cut of `entries` (distinct colours with their pixel counts) into at most `limit` colours: the box with
// the largest squared error (about its weighted mean) is split first, at its weighted median along its widest
// channel; each box's weighted mean (rounded) is one palette colour.
std::vector<std::uint32_t> median_cut(std::vector<Entry>& entries, std::size_t limit) {
  struct Box {
    std::size_t begin, end;
    double error;  // Σ count · |colour - mean|²
    int axis;      // the widest channel
  };
  const auto measure = [&](std::size_t begin, std::size_t end) {
    Box box{begin, end, 0.0, 0};
    double n = 0, sum[3] = {0, 0, 0}, squares[3] = {0, 0, 0};
    int lo[3] = {255, 255, 255}, hi[3] = {0, 0, 0};
    for (std::size_t i = begin; i < end; ++i) {
      const double w = entries[i].count;
      n += w;
      for (int a = 0; a < 3; ++a) {
        const int v = channel(entries[i].colour, a);
        sum[a] += w * v;
        squares[a] += w * v * v;
        lo[a] = std::min(lo[a], v);
        hi[a] = std::max(hi[a], v);
      }
    }
    for (int a = 0; a < 3; ++a) {
      box.error += squares[a] - sum[a] * sum[a] / n;
      if (hi[a] - lo[a] > hi[box.axis] - lo[box.axis]) box.axis = a;
    }
    if (end - begin < 2) box.error = -1.0;  // one colour: nothing to split
    return box;
  };
  std::vector<Box> boxes{measure(0, entries.size())};
  while (boxes.size() < limit) {
    const auto worst = std::max_element(boxes.begin(), boxes.end(),
                                        [](const Box& a, const Box& b) { return a.error < b.error; });
    if (worst->error < 0.0) break;
    const Box box = *worst;
    const int axis = box.axis;
    std::sort(entries.begin() + static_cast<std::ptrdiff_t>(box.begin),
              entries.begin() + static_cast<std::ptrdiff_t>(box.end), [axis](const Entry& a, const Entry& b) {
                const int va = channel(a.colour, axis), vb = channel(b.colour, axis);
                return va != vb ? va < vb : a.colour < b.colour;
              });
    double total = 0;
    for (std::size_t i = box.begin; i < box.end; ++i) total += entries[i].count;
    double below = 0;
    std::size_t split = box.begin + 1;
    for (std::size_t i = box.begin; i + 1 < box.end; ++i) {
      below += entries[i].count;
      split = i + 1;
      if (below >= 0.5 * total) break;
    }
    *worst = measure(box.begin, split);
    boxes.push_back(measure(split, box.end));
  }
  std::vector<std::uint32_t> palette;
  palette.reserve(boxes.size());
  for (const Box& box : boxes) {
    double n = 0, sum[3] = {0, 0, 0};
    for (std::size_t i = box.begin; i < box.end; ++i) {
      n += entries[i].count;
      for (int a = 0; a < 3; ++a) sum[a] += double(entries[i].count) * channel(entries[i].colour, a);
    }
    std::uint32_t colour = 0;
    for (int a = 0; a < 3; ++a)
      colour |= static_cast<std::uint32_t>(std::clamp(static_cast<int>(sum[a] / n + 0.5), 0, 255)) << (16 - 8 * a);
    palette.push_back(colour);
  }
  return palette;
}

// The nearest palette colour (RGB distance) of many colours: the palette sorted by green, searched outwards from
// the colour's green until the green difference alone exceeds the best distance found.
class NearestColour {
 public:
  explicit NearestColour(const std::vector<std::uint32_t>& palette) : palette_(palette) {
    order_.resize(palette.size());
    for (std::size_t i = 0; i < order_.size(); ++i) order_[i] = static_cast<int>(i);
    std::sort(order_.begin(), order_.end(), [&](int a, int b) { return green(palette[a]) < green(palette[b]); });
    greens_.reserve(order_.size());
    for (int i : order_) greens_.push_back(green(palette[static_cast<std::size_t>(i)]));
  }

  int operator()(std::uint32_t colour) const {
    const int r = red(colour), g = green(colour), b = blue(colour);
    int best = 0, best_distance = 1 << 30;
    const auto try_at = [&](std::size_t k) {
      const std::uint32_t p = palette_[static_cast<std::size_t>(order_[k])];
      const int dr = red(p) - r, dg = green(p) - g, db = blue(p) - b;
      const int d = dr * dr + dg * dg + db * db;
      if (d < best_distance || (d == best_distance && order_[k] < best)) {
        best_distance = d;
        best = order_[k];
      }
    };
    const std::size_t start =
        static_cast<std::size_t>(std::lower_bound(greens_.begin(), greens_.end(), g) - greens_.begin());
    std::size_t up = start, down = start;  // [down, up) searched
    while (true) {
      const bool can_up = up < greens_.size() && (greens_[up] - g) * (greens_[up] - g) <= best_distance;
      const bool can_down = down > 0 && (g - greens_[down - 1]) * (g - greens_[down - 1]) <= best_distance;
      if (!can_up && !can_down) break;
      if (can_up) try_at(up++);
      if (can_down) try_at(--down);
    }
    return best;
  }

 private:
  const std::vector<std::uint32_t>& palette_;
  std::vector<int> order_, greens_;
};

// Whether n bytes are equal, eight at a time (memcmp is a byte loop in some C libraries, wasm's among them).
bool same_bytes(const std::uint8_t* a, const std::uint8_t* b, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t x, y;
    std::memcpy(&x, a + i, 8);
    std::memcpy(&y, b + i, 8);
    if (x != y) return false;
  }
  for (; i < n; ++i)
    if (a[i] != b[i]) return false;
  return true;
}

// What giflib writes goes into a string; giflib is C: nothing may be thrown through it.
struct Sink {
  std::string bytes;
  bool out_of_memory = false;
};

int write_sink(GifFileType* gif, const GifByteType* data, int size) {
  auto* sink = static_cast<Sink*>(gif->UserData);
  try {
    sink->bytes.append(reinterpret_cast<const char*>(data), static_cast<std::size_t>(size));
    return size;
  } catch (...) {
    sink->out_of_memory = true;
    return 0;
  }
}

struct MapDeleter {
  void operator()(ColorMapObject* map) const { GifFreeMapObject(map); }
};
using MapPtr = std::unique_ptr<ColorMapObject, MapDeleter>;
struct GifCloser {  // a GIF given up on (an error, no finish()): its memory freed, its bytes dropped
  void operator()(GifFileType* gif) const { EGifCloseFile(gif, nullptr); }
};
using GifPtr = std::unique_ptr<GifFileType, GifCloser>;

class GifEncoder final : public Encoder {
 public:
  GifEncoder(const VideoSpec& spec, const std::string& name)
      : spec_(spec), name_(name), width_(spec.width), height_(spec.height) {
    if (spec.format != Format::Gif) throw VideoError(name_ + ": the GIF encoder writes GIFs only");
    const std::size_t pixels = static_cast<std::size_t>(width_) * height_;
    current_.resize(pixels);
    previous_.resize(pixels);
    previous_rgba_.resize(pixels * 4);
    shown_.resize(pixels);
    int error = 0;
    gif_.reset(EGifOpen(&sink_, write_sink, &error));
    if (!gif_) fail(error);
    EGifSetGifVersion(gif_.get(), true);
    check(EGifPutScreenDesc(gif_.get(), width_, height_, 8, 0, nullptr));
    // Loop forever: NETSCAPE2.0, sub-block 1, loop count 0.
    static const GifByteType netscape[] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
    static const GifByteType loop[] = {1, 0, 0};
    check(EGifPutExtensionLeader(gif_.get(), APPLICATION_EXT_FUNC_CODE));
    check(EGifPutExtensionBlock(gif_.get(), sizeof netscape, netscape));
    check(EGifPutExtensionBlock(gif_.get(), sizeof loop, loop));
    check(EGifPutExtensionTrailer(gif_.get()));
  }

  int passes() const override { return 1; }
  long frame_count() const override { return frames_; }
  void next_pass() override { throw VideoError(name_ + ": a GIF is encoded in one pass"); }

  void add_frame(const std::uint8_t* rgba, std::size_t stride) override {
    if (!gif_) throw VideoError(name_ + ": the GIF is finished");
    const bool first = frames_ == 0;
    const std::size_t row_bytes = static_cast<std::size_t>(width_) * 4;
    const auto input_row = [&](int y) { return rgba + static_cast<std::size_t>(y) * stride; };
    const auto previous_row = [&](int y) { return &previous_rgba_[static_cast<std::size_t>(y) * row_bytes]; };
    // The rectangle around the pixels that differ from the frame before (the whole frame first), found on the
    // input's bytes: a frame repeated (the window's recorder repeats a frame that covers several) costs one compare.
    int x0 = 0, y0 = 0, x1 = width_, y1 = height_;  // [x0, x1) × [y0, y1)
    if (!first) {
      x0 = width_, y0 = height_, x1 = 0, y1 = 0;
      for (int y = 0; y < height_; ++y) {
        const std::uint8_t *a = input_row(y), *b = previous_row(y);
        if (same_bytes(a, b, row_bytes)) continue;
        int left = 0, right = width_ - 1;
        while (std::memcmp(a + 4 * left, b + 4 * left, 4) == 0) ++left;
        while (std::memcmp(a + 4 * right, b + 4 * right, 4) == 0) --right;
        x0 = std::min(x0, left);
        x1 = std::max(x1, right + 1);
        y0 = std::min(y0, y);
        y1 = y + 1;
      }
    }
    if (x1 <= x0) {
      write_unchanged();
    } else {
      // This frame's pixels in the rectangle (elsewhere they equal the previous frame's).
      for (int y = y0; y < y1; ++y) {
        const std::uint8_t* row = input_row(y);
        std::uint32_t* out = &current_[static_cast<std::size_t>(y) * width_];
        for (int x = x0; x < x1; ++x) out[x] = pack(row + 4 * x);
      }
      write_changed(first, x0, y0, x1, y1);
      for (int y = y0; y < y1; ++y) {
        const std::size_t at = static_cast<std::size_t>(y) * width_ + x0;
        std::copy(&current_[at], &current_[at] + (x1 - x0), &previous_[at]);
        std::memcpy(previous_row(y) + 4 * x0, input_row(y) + 4 * x0, static_cast<std::size_t>(x1 - x0) * 4);
      }
    }
    ++frames_;
  }

  std::string finish() override {
    if (!gif_) throw VideoError(name_ + ": the GIF is finished");
    if (frames_ == 0) throw VideoError(name_ + ": no frames to encode");
    int error = 0;
    const int result = EGifCloseFile(gif_.release(), &error);
    if (sink_.out_of_memory) throw std::bad_alloc();
    if (result != GIF_OK) throw VideoError(name_ + ": giflib: " + describe(error));
    return std::move(sink_.bytes);
  }

 private:
  static std::string describe(int error) {
    const char* text = GifErrorString(error);
    return text ? text : "error " + std::to_string(error);
  }
  [[noreturn]] void fail(int error) {
    if (sink_.out_of_memory || error == E_GIF_ERR_NOT_ENOUGH_MEM) throw std::bad_alloc();
    throw VideoError(name_ + ": giflib: " + describe(error));
  }
  void check(int result) {
    if (result != GIF_OK || sink_.out_of_memory) fail(gif_ ? gif_->Error : 0);
  }

  // Frame k is shown from round(100 k / fps) cs; the last until round(100 n / fps). At least 1 cs each.
  int delay_cs(long k) const {
    const auto start = [&](long i) { return (200 * i + spec_.fps) / (2 * spec_.fps); };
    return static_cast<int>(std::max(1L, start(k + 1) - start(k)));
  }

  void put_control(int transparent) {
    GraphicsControlBlock control{};
    control.DisposalMode = DISPOSE_DO_NOT;
    control.UserInputFlag = false;
    control.DelayTime = delay_cs(frames_);
    control.TransparentColor = transparent;
    GifByteType bytes[4];
    const std::size_t size = EGifGCBToExtension(&control, bytes);
    check(EGifPutExtension(gif_.get(), GRAPHICS_EXT_FUNC_CODE, static_cast<int>(size), bytes));
  }

  // The palette (and the transparent index after it, if any) padded to a power of two (at least 2), the image's
  // rectangle and its rows of indices.
  void put_image(const std::vector<std::uint32_t>& palette, int transparent, int left, int top, int w, int h,
                 GifPixelType* rows, int row_stride) {
    const int used = static_cast<int>(palette.size()) + (transparent == NO_TRANSPARENT_COLOR ? 0 : 1);
    int size = 2;
    while (size < used) size *= 2;
    std::array<GifColorType, 256> colours{};
    for (std::size_t i = 0; i < palette.size(); ++i)
      colours[i] = GifColorType{static_cast<GifByteType>(red(palette[i])), static_cast<GifByteType>(green(palette[i])),
                                static_cast<GifByteType>(blue(palette[i]))};
    const MapPtr map(GifMakeMapObject(size, colours.data()));
    if (!map) throw std::bad_alloc();
    put_control(transparent);
    check(EGifPutImageDesc(gif_.get(), left, top, w, h, false, map.get()));
    for (int y = 0; y < h; ++y) check(EGifPutLine(gif_.get(), rows + static_cast<std::size_t>(y) * row_stride, w));
  }

  // Nothing changed: one transparent pixel keeps the frame (and its time) in the file.
  void write_unchanged() {
    GifPixelType pixel = 1;
    put_image({0}, 1, 0, 0, 1, 1, &pixel, 1);
  }

  void write_changed(bool first, int x0, int y0, int x1, int y1) {
    const int w = x1 - x0, h = y1 - y0;
    const auto changed = [&](std::size_t at) { return first || current_[at] != previous_[at]; };
    // The changed pixels' colours.
    table_.clear();
    for (int y = y0; y < y1; ++y) {
      std::uint32_t last = ColourTable::kEmpty;
      ColourTable::Slot* slot = nullptr;
      for (int x = x0; x < x1; ++x) {
        const std::size_t at = static_cast<std::size_t>(y) * width_ + x;
        if (!changed(at)) continue;
        if (current_[at] != last) {
          last = current_[at];
          slot = &table_.add(last);
        }
        ++slot->count;
      }
    }
    // The palette: the colours themselves when they fit, else a median cut. After the first frame the last
    // slot is the transparent index (pixels left as they were shown).
    const std::size_t limit = first ? 256 : 255;
    std::vector<std::uint32_t> palette;
    palette.reserve(256);
    if (table_.size() <= limit) {
      for (std::uint32_t at : table_.used()) {
        ColourTable::Slot& s = table_.slot(at);
        s.index = static_cast<int>(palette.size());
        palette.push_back(s.key);
      }
    } else {
      entries_.clear();
      for (std::uint32_t at : table_.used()) entries_.push_back({table_.slot(at).key, table_.slot(at).count});
      palette = median_cut(entries_, limit);
      const NearestColour nearest(palette);
      for (std::uint32_t at : table_.used()) table_.slot(at).index = nearest(table_.slot(at).key);
    }
    const int transparent = first ? NO_TRANSPARENT_COLOR : static_cast<int>(palette.size());
    // Indices; a pixel whose colour as shown does not change is transparent. The rectangle shrinks to the pixels
    // that do change.
    indices_.resize(static_cast<std::size_t>(w) * h);
    int tx0 = x1, ty0 = y1, tx1 = x0, ty1 = y0;
    for (int y = y0; y < y1; ++y) {
      GifPixelType* out = &indices_[static_cast<std::size_t>(y - y0) * w];
      std::uint32_t last = ColourTable::kEmpty;
      int index = 0;
      for (int x = x0; x < x1; ++x) {
        const std::size_t at = static_cast<std::size_t>(y) * width_ + x;
        if (!changed(at)) {
          out[x - x0] = static_cast<GifPixelType>(transparent);
          continue;
        }
        if (current_[at] != last) {
          last = current_[at];
          index = table_.find(last).index;
        }
        const std::uint32_t colour = palette[static_cast<std::size_t>(index)];
        if (!first && colour == shown_[at]) {
          out[x - x0] = static_cast<GifPixelType>(transparent);
          continue;
        }
        out[x - x0] = static_cast<GifPixelType>(index);
        shown_[at] = colour;
        tx0 = std::min(tx0, x);
        tx1 = std::max(tx1, x + 1);
        ty0 = std::min(ty0, y);
        ty1 = y + 1;
      }
    }
    if (tx1 <= tx0) {
      write_unchanged();
      return;
    }
    put_image(palette, transparent, tx0, ty0, tx1 - tx0, ty1 - ty0,
              &indices_[static_cast<std::size_t>(ty0 - y0) * w + (tx0 - x0)], w);
  }

  VideoSpec spec_;
  std::string name_;
  int width_, height_;
  long frames_ = 0;
  Sink sink_;
  GifPtr gif_;
  std::vector<std::uint32_t> current_, previous_;  // this frame's (in the changed rectangle) and the previous
                                                   // frame's input, 0xRRGGBB
  std::vector<std::uint8_t> previous_rgba_;        // the previous frame's input as given (rows width × 4 bytes)
  std::vector<std::uint32_t> shown_;               // what a decoder shows after the frames written so far
  std::vector<GifPixelType> indices_;
  std::vector<Entry> entries_;
  ColourTable table_;
};

}  // namespace

std::unique_ptr<Encoder> make_gif_encoder(const VideoSpec& spec, const std::string& name) {
  return std::make_unique<GifEncoder>(spec, name);
}

}  // namespace lagrange::video
