// With a bundler (esbuild, Vite, webpack, Rollup): importing the package defines <seekframe-player>.
import '@seekframe/player';

const player = document.createElement('seekframe-player');
player.setAttribute('src', './composition/index.html');
player.setAttribute('controls', '');
player.setAttribute('width', '640');
// An object works as the property; the attribute takes JSON.
player.variables = { title: 'Hello from a bundle' };
player.addEventListener('ready', async (event) => {
  console.log('ready', event.detail);
  await player.seek(1.5); // resolves when frame 1.5 s is painted
  document.body.dataset.seeked = String(player.currentTime);
});
player.addEventListener('error', (event) => console.error(event.detail.code, event.detail.message));
document.getElementById('app').append(player);
