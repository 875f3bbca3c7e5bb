// Where the texts over the scene go (the top line, the legend, a lane's name, a message), as plain geometry: each
// sits in a corner of its view where it covers nothing the scene can reach, and the camera frames the scene's reach
// into what the overlays leave free. No Dear ImGui here: the tests check the rules on boxes alone.
//
// Framing: an overlay in a corner takes either a band across the view (top or bottom, its height) or a column down
// it (left or right, its width) away from the scene. Every choice of corner and of band or column for every overlay
// leaves a free rectangle; the scene's reach (a box of known aspect) is fitted into each, and the choice that draws
// it largest wins (ties: the earlier choice, so the preferred corners), unless one at least 85 % as large puts it
// nearer the view's middle; the reach goes as near the middle as its free rectangle lets it (`Framing::free` is then
// the reach's own rectangle). The reach then covers no overlay by
// construction. Each frame, the overlays are placed again against where the reach is now (a pan or a zoom moves it):
// the first corner, in the overlay's order, whose box covers neither the reach nor an overlay already placed.
#pragma once

#include <span>
#include <vector>

namespace lagrange::app {

struct Box {
  float x0 = 0.0f, y0 = 0.0f, x1 = 0.0f, y1 = 0.0f;
  float width() const { return x1 - x0; }
  float height() const { return y1 - y0; }
  bool empty() const { return x1 <= x0 || y1 <= y0; }
};
// The area two boxes share (0 when apart or only touching).
float overlap_area(const Box& a, const Box& b);

enum class Anchor { TopLeft, TopRight, BottomLeft, BottomRight, TopCentre, BottomCentre };

struct Overlay {
  float width = 0.0f, height = 0.0f;
  std::vector<Anchor> anchors;  // where it may go, in order of preference
};

// The box of an overlay `width` × `height` at `anchor` of `view`, `margin` from its edges.
Box overlay_box(const Box& view, Anchor anchor, float width, float height, float margin);

struct Framing {
  Box free;                      // fit the scene's reach into this
  std::vector<Anchor> anchors;   // each overlay's corner (its first anchor when it has no room at all)
  float scale = 0.0f;            // the height the reach gets in `free` (its width is aspect × this)
};
// The best framing of a reach of `aspect` (width / height on the screen, > 0) in `view` beside `overlays`: the
// overlays sit `margin` from the view's edges and the free rectangle keeps `gap` from each overlay.
// centred: the free rectangle kept centred in the view (a perspective view, whose spheres stretch off its middle).
Framing frame_beside(const Box& view, float aspect, std::span<const Overlay> overlays, float margin, float gap,
                     bool centred = false);

// Each overlay's anchor for this frame: the first of its anchors (`preferred` first when given) whose box covers
// neither `reach` (the scene's reach on the screen) nor an overlay already placed; else the first such box among its
// corners moved clear of an overlay already there (stacked under it at the top, over it at the bottom); when every
// one covers something, the one covering least — of the scene rather than of another overlay. `boxes`: where each
// went (a stacked one is not its anchor's box).
std::vector<Anchor> place_overlays(const Box& view, const Box& reach, std::span<const Overlay> overlays,
                                   std::span<const Anchor> preferred, float margin, std::vector<Box>* boxes = nullptr);

}  // namespace lagrange::app
