#include "ui/ui_layers.h"

#include <cstring>

namespace lagrange::app {

UiLayers::UiLayers(ImDrawData* data) {
  if (!data) return;  // nothing drawn yet: two empty layers (zero size: the backend draws nothing)
  for (int i = 0; i < data->CmdListsCount; ++i) {
    ImDrawList* list = data->CmdLists[i];
    const bool front = list->_OwnerName && std::strcmp(list->_OwnerName, "##Foreground") == 0;
    lists_[front ? 1 : 0].push_back(list);
  }
  for (int k = 0; k < 2; ++k) {
    ImDrawData& layer = layers_[k];
    layer = *data;  // position, size and scale of the display
    layer.CmdLists = lists_[k].data();
    layer.CmdListsCount = static_cast<int>(lists_[k].size());
    layer.TotalVtxCount = layer.TotalIdxCount = 0;
    for (const ImDrawList* list : lists_[k]) {
      layer.TotalVtxCount += list->VtxBuffer.Size;
      layer.TotalIdxCount += list->IdxBuffer.Size;
    }
  }
}

}  // namespace lagrange::app
