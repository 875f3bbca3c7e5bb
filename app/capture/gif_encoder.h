// A GIF encoder in process, with giflib (Debian libgif; the page builds it from Debian's source package): what the
// page records the window as (there is no FFmpeg in a browser). One pass over the frames (a window cannot be drawn
// again), RGBA in, the whole file in memory out; nothing is written to any file here.
//
// Each frame has a palette of its own (a local colour table) made from its own colours:
//  - the first frame all of its pixels; every later frame only the pixels that changed since the frame before
//    (the rest is left as the previous frames drew it: disposal "do not dispose", and those pixels transparent);
//  - when those pixels have at most 256 colours (255 after the first frame, whose last palette slot is the
//    transparent one) the palette is exactly their colours and the decoded frame equals the input exactly;
//  - with more, a median cut (boxes of the colour histogram, weighted by pixel counts, the box with the largest
//    squared error split first at its weighted median along its widest channel; each box's weighted mean is a
//    palette colour), then each colour is mapped to the nearest palette colour (RGB distance), once per distinct
//    colour (the histogram is the cache). Median cut rather than popularity because the window's many colours come
//    from antialiased edges and text, blends between a few flat colours: popularity would keep the flats and the
//    commonest blends and throw a rare blend onto a far colour, while a box of blends gets its own mean; a flat
//    colour, alone in its box, stays exact. No dithering: flat areas stay flat (and compress well).
// Only the rectangle around the pixels whose shown colour changes is written (frame differencing): a frame equal
// to the one before is a 1x1 transparent image, so ten seconds of a pendulum over a still background stay small.
//
// Timing (capture/video_writer.h): frame k is shown from round(100 k / fps) cs on, so its delay is
// round(100 (k+1) / fps) - round(100 k / fps), at least 1 cs; the last frame is shown until round(100 n / fps), so
// n frames last the video's n / fps seconds to within 0.5 cs (FFmpeg's GIF muxer, on the desktop, gives the last
// frame the delay before it instead). The GIF loops forever (the NETSCAPE2.0 application extension).
#pragma once

#include <memory>
#include <string>

#include "capture/video_encoder.h"

namespace lagrange::video {

// A new GIF encoder for `spec` (format GIF, a size check_spec accepted; `name` is the output's name in messages).
// passes() is 1. Throws VideoError (giflib's reasons), std::bad_alloc.
std::unique_ptr<Encoder> make_gif_encoder(const VideoSpec& spec, const std::string& name);

}  // namespace lagrange::video
