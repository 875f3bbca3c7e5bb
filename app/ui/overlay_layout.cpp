#include "ui/overlay_layout.h"

#include <algorithm>
#include <functional>

namespace lagrange::app {
namespace {

bool top(Anchor a) { return a == Anchor::TopLeft || a == Anchor::TopRight || a == Anchor::TopCentre; }
bool left(Anchor a) { return a == Anchor::TopLeft || a == Anchor::BottomLeft; }
bool right(Anchor a) { return a == Anchor::TopRight || a == Anchor::BottomRight; }
bool centre(Anchor a) { return a == Anchor::TopCentre || a == Anchor::BottomCentre; }

// The share of the largest framing's size a framing nearer the view's middle may give up (frame_beside).
constexpr float kCentredShare = 0.85f;

// The height a box of `aspect` gets when fitted into `free`.
float fitted_height(const Box& free, float aspect) {
  if (free.empty()) return 0.0f;
  return std::min(free.height(), free.width() / aspect);
}

}  // namespace

float overlap_area(const Box& a, const Box& b) {
  const float w = std::min(a.x1, b.x1) - std::max(a.x0, b.x0);
  const float h = std::min(a.y1, b.y1) - std::max(a.y0, b.y0);
  return w > 0.0f && h > 0.0f ? w * h : 0.0f;
}

Box overlay_box(const Box& view, Anchor anchor, float width, float height, float margin) {
  Box b;
  if (left(anchor)) b.x0 = view.x0 + margin;
  else if (right(anchor)) b.x0 = view.x1 - margin - width;
  else b.x0 = 0.5f * (view.x0 + view.x1 - width);
  b.y0 = top(anchor) ? view.y0 + margin : view.y1 - margin - height;
  b.x1 = b.x0 + width;
  b.y1 = b.y0 + height;
  return b;
}

Framing frame_beside(const Box& view, float aspect, std::span<const Overlay> overlays, float margin, float gap,
                     bool centred) {
  aspect = std::max(aspect, 1e-3f);
  Framing best;
  best.free = view;
  best.scale = -1.0f;
  for (const Overlay& o : overlays) best.anchors.push_back(o.anchors.empty() ? Anchor::TopLeft : o.anchors.front());
  std::vector<Anchor> chosen(overlays.size());
  std::vector<Box> boxes(overlays.size());
  struct Candidate {
    Box free;
    std::vector<Anchor> anchors;
    float scale;
  };
  std::vector<Candidate> candidates;
  // Depth-first over every overlay's (anchor, band or column), the free rectangle narrowed as it goes.
  std::function<void(std::size_t, Box)> visit = [&](std::size_t k, Box free) {
    if (k == overlays.size()) {
      if (centred) {  // as far from the middle on both sides
        const float dx = std::max(free.x0 - view.x0, view.x1 - free.x1), dy = std::max(free.y0 - view.y0, view.y1 - free.y1);
        free = Box{view.x0 + dx, view.y0 + dy, view.x1 - dx, view.y1 - dy};
      }
      const float h = fitted_height(free, aspect);
      candidates.push_back({free, chosen, h});
      if (h > best.scale) {
        best.scale = h;
        best.free = free;
        best.anchors = chosen;
      }
      return;
    }
    const Overlay& o = overlays[k];
    if (o.anchors.empty() || o.width <= 0.0f || o.height <= 0.0f) {
      chosen[k] = o.anchors.empty() ? Anchor::TopLeft : o.anchors.front();
      boxes[k] = Box{};
      visit(k + 1, free);
      return;
    }
    for (Anchor a : o.anchors) {
      const Box b = overlay_box(view, a, o.width, o.height, margin);
      bool clash = false;
      for (std::size_t j = 0; j < k; ++j) clash = clash || overlap_area(b, boxes[j]) > 0.0f;
      if (clash) continue;
      chosen[k] = a;
      boxes[k] = b;
      Box band = free;  // the overlay keeps a band across the view ...
      if (top(a)) band.y0 = std::max(band.y0, b.y1 + gap);
      else band.y1 = std::min(band.y1, b.y0 - gap);
      visit(k + 1, band);
      if (!centre(a)) {  // ... or a column down it
        Box column = free;
        if (left(a)) column.x0 = std::max(column.x0, b.x1 + gap);
        else column.x1 = std::min(column.x1, b.x0 - gap);
        visit(k + 1, column);
      }
    }
  };
  visit(0, view);
  best.scale = std::max(best.scale, 0.0f);
  if (centred || best.scale <= 0.0f) return best;
  // The reach goes as near the view's middle as its free rectangle lets it, not to that rectangle's middle; and a
  // framing that draws it at least kCentredShare as large but nearer the middle wins over the largest (the largest
  // put a pendulum beside a legend column in the right half of the view, the left half empty).
  const float mx = 0.5f * (view.x0 + view.x1), my = 0.5f * (view.y0 + view.y1);
  const auto placed = [&](const Candidate& c) {
    const float h = c.scale, w = std::min(aspect * h, c.free.width());
    const auto slide = [](float middle, float size, float lo, float hi) {
      return std::clamp(middle, lo + 0.5f * size, std::max(hi - 0.5f * size, lo + 0.5f * size));
    };
    const float cx = slide(mx, w, c.free.x0, c.free.x1), cy = slide(my, h, c.free.y0, c.free.y1);
    return Box{cx - 0.5f * w, cy - 0.5f * h, cx + 0.5f * w, cy + 0.5f * h};
  };
  const Candidate* pick = nullptr;
  float nearest = 0.0f;
  for (const Candidate& c : candidates) {
    if (c.free.empty() || c.scale < kCentredShare * best.scale) continue;
    const Box b = placed(c);
    const float off = std::abs(0.5f * (b.x0 + b.x1) - mx) + std::abs(0.5f * (b.y0 + b.y1) - my);
    if (!pick || off < nearest - 0.5f || (off < nearest + 0.5f && c.scale > pick->scale)) {
      pick = &c;
      nearest = off;
    }
  }
  if (pick) {
    best.free = placed(*pick);
    best.anchors = pick->anchors;
    best.scale = pick->scale;
  }
  return best;
}

std::vector<Anchor> place_overlays(const Box& view, const Box& reach, std::span<const Overlay> overlays,
                                   std::span<const Anchor> preferred, float margin, std::vector<Box>* boxes_out) {
  std::vector<Anchor> placed;
  std::vector<Box> boxes;
  for (std::size_t k = 0; k < overlays.size(); ++k) {
    const Overlay& o = overlays[k];
    std::vector<Anchor> order;
    if (k < preferred.size()) order.push_back(preferred[k]);
    for (Anchor a : o.anchors)
      if (std::find(order.begin(), order.end(), a) == order.end()) order.push_back(a);
    if (order.empty()) order.push_back(Anchor::TopLeft);
    // Its corners, then each corner moved clear of an overlay already there (stacked under it at the top, over it at
    // the bottom), inside the view.
    std::vector<std::pair<Anchor, Box>> tries;
    for (Anchor a : order) tries.push_back({a, overlay_box(view, a, o.width, o.height, margin)});
    for (Anchor a : order)
      for (const Box& other : boxes) {
        Box b = overlay_box(view, a, o.width, o.height, margin);
        if (overlap_area(b, other) == 0.0f) continue;
        const float shift = top(a) ? other.y1 + 0.5f * margin - b.y0 : other.y0 - 0.5f * margin - b.y1;
        b.y0 += shift;
        b.y1 += shift;
        if (b.y0 >= view.y0 && b.y1 <= view.y1) tries.push_back({a, b});
      }
    std::pair<Anchor, Box> best = tries.front();
    float least = -1.0f;
    for (const auto& [a, b] : tries) {
      float covered = overlap_area(b, reach);
      // On another overlay: worse than any amount of the scene (text on text reads as neither).
      for (const Box& other : boxes) covered += 1e6f * overlap_area(b, other);
      if (least < 0.0f || covered < least) {
        least = covered;
        best = {a, b};
      }
      if (covered == 0.0f) break;
    }
    placed.push_back(best.first);
    boxes.push_back(best.second);
  }
  if (boxes_out) *boxes_out = boxes;
  return placed;
}

}  // namespace lagrange::app
