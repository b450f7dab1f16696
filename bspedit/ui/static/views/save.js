// The save view (being built).
export function mount(root, app) {
  root.innerHTML = '<p class="dim">save</p>';
}
