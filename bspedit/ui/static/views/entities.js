// The entities view (being built).
export function mount(root, app) {
  root.innerHTML = '<p class="dim">entities</p>';
}
