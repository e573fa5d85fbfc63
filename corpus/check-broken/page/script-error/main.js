// The subtitle element was renamed in the HTML, not here.
const subtitle = document.querySelector('#subtitle');
subtitle.textContent = 'Q3 numbers';
