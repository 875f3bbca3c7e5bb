// The scene editor's undo, redo and selection (editor.h).
#include "sandbox/editor.h"

#include <algorithm>

namespace lagrange::app {

void EditorState::begin_change(const std::string& label) {
  ++edits_made;
  undo.push_back({draft, selected, constraint, label});
  if (undo.size() > kMaxUndo) undo.erase(undo.begin());
  redo.clear();
}

void EditorState::change(const std::string& label, const std::function<void(Scene&)>& edit) {
  begin_change(label);
  edit(draft);
  mark_changed();
}

bool EditorState::undo_last() {
  if (undo.empty()) return false;
  redo.push_back({draft, selected, constraint, undo.back().label});
  draft = std::move(undo.back().scene);
  selected = std::move(undo.back().selected);
  constraint = undo.back().constraint;
  undo.pop_back();
  mark_changed();
  return true;
}

bool EditorState::redo_last() {
  if (redo.empty()) return false;
  undo.push_back({draft, selected, constraint, redo.back().label});
  draft = std::move(redo.back().scene);
  selected = std::move(redo.back().selected);
  constraint = redo.back().constraint;
  redo.pop_back();
  mark_changed();
  return true;
}

bool EditorState::is_selected(int p) const { return std::find(selected.begin(), selected.end(), p) != selected.end(); }

void EditorState::select_only(int p) {
  selected = {p};
  constraint = -1;
}

std::string document_name(const EditorState& editor) {
  return editor.document.empty() ? std::string("untitled.json") : editor.document.filename().string();
}

int index_named(const std::string& problem, const std::string& what) {
  const std::string key = what + "[";
  const std::size_t at = problem.find(": " + key);
  if (at == std::string::npos) return -1;
  std::size_t i = at + 2 + key.size();
  int value = 0;
  bool digits = false;
  while (i < problem.size() && problem[i] >= '0' && problem[i] <= '9' && value < 100'000'000) {
    value = value * 10 + (problem[i] - '0');
    digits = true;
    ++i;
  }
  return digits && i < problem.size() && problem[i] == ']' ? value : -1;
}

}  // namespace lagrange::app
