// The patch view (being built).
export function mount(root, app) {
  root.innerHTML = '<p class="dim">patch</p>';
}
