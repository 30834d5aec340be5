// The two ways a file comes in: the hidden file input (the panel's "import file…" button clicks
// it) and dropping files anywhere on the page, with an overlay while something is dragged over.
// Both hand an array of File objects to onFiles.
import { ACCEPT } from './file_kinds.js';

export function createFilePicker({ input, overlay, onFiles }) {
  input.accept = ACCEPT;
  input.multiple = true; // a TetGen mesh is two files
  input.addEventListener('change', () => {
    const files = [...input.files];
    input.value = ''; // choosing the same file again fires change again
    if (files.length) onFiles(files);
  });

  // dragenter/dragleave fire for every child element crossed; count them to know when the drag
  // really left the window.
  let depth = 0;
  const carriesFiles = (event) => [...(event.dataTransfer?.types ?? [])].includes('Files');
  const hide = () => {
    depth = 0;
    overlay.hidden = true;
  };
  window.addEventListener('dragenter', (event) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    depth += 1;
    overlay.hidden = false;
  });
  window.addEventListener('dragover', (event) => {
    if (!carriesFiles(event)) return;
    event.preventDefault(); // allows the drop
    event.dataTransfer.dropEffect = 'copy';
  });
  window.addEventListener('dragleave', (event) => {
    if (!carriesFiles(event)) return;
    depth = Math.max(0, depth - 1);
    if (depth === 0) hide();
  });
  window.addEventListener('drop', (event) => {
    if (!carriesFiles(event)) return;
    event.preventDefault(); // otherwise the browser opens the file
    hide();
    const files = [...event.dataTransfer.files];
    if (files.length) onFiles(files);
  });

  return {
    // Opens the browser's file chooser; must run inside a user gesture (a click).
    choose: () => input.click(),
  };
}
