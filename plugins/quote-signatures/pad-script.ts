/** The pad's script, served as an asset at /billing/assets/<name>: the service's own origin, which the public pages' `script-src 'self'` allows. */
export const PAD_SCRIPT_NAME = 'quote-signature-pad.js';

/**
 * The drawing pad: a few lines of canvas code, no library. It draws with pointer events (mouse, pen and
 * touch alike) and keeps the drawing, as a PNG data URL, in the Accept form's hidden `signature` field,
 * which the public page's script posts with the rest of the form.
 */
export const PAD_SCRIPT = `
(() => {
  const pad = document.getElementById('signature-pad');
  const field = document.getElementById('signature-data');
  if (!pad || !field) return;
  const ctx = pad.getContext('2d');
  ctx.lineWidth = 2.5;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.strokeStyle = '#111827';
  let drawing = false;
  let drawn = false;
  const at = (e) => {
    const r = pad.getBoundingClientRect();
    return [((e.clientX - r.left) * pad.width) / r.width, ((e.clientY - r.top) * pad.height) / r.height];
  };
  pad.addEventListener('pointerdown', (e) => {
    drawing = true;
    pad.setPointerCapture(e.pointerId);
    const [x, y] = at(e);
    ctx.beginPath();
    ctx.moveTo(x, y);
    e.preventDefault();
  });
  pad.addEventListener('pointermove', (e) => {
    if (!drawing) return;
    const [x, y] = at(e);
    ctx.lineTo(x, y);
    ctx.stroke();
    drawn = true;
  });
  const end = () => {
    if (!drawing) return;
    drawing = false;
    if (drawn) field.value = pad.toDataURL('image/png');
  };
  pad.addEventListener('pointerup', end);
  pad.addEventListener('pointercancel', end);
  document.getElementById('signature-clear').addEventListener('click', () => {
    ctx.clearRect(0, 0, pad.width, pad.height);
    drawn = false;
    field.value = '';
  });
})();
`;
