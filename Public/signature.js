// Drawn signature on the consent page, an optional extra beside the typed name. Each
// <div class="signature-pad" data-field="NAME" hidden> gets a canvas and a Clear button, and the
// form's hidden input NAME holds the strokes as path data: "M10 20 L11 22 M100 50", x in
// 0...600, y in 0...200, the same grammar and bounds the server checks.
(function () {
  'use strict';
  const WIDTH = 600, HEIGHT = 200, MAX_STROKES = 40, MAX_POINTS = 2000, MAX_LENGTH = 24000;
  const SCALE = 2; // backing pixels per unit: stays sharp when stretched on high-density screens
  const NUMBER = /^(0|[1-9][0-9]{0,3})$/;

  // Strokes are arrays of [x, y] integer pairs.
  function format(strokes) {
    return strokes.map((s) => s.map((p, i) => (i ? 'L' : 'M') + p[0] + ' ' + p[1]).join(' ')).join(' ');
  }

  // The strokes in path data, or null unless it is exactly what the server accepts; '' is none.
  function parse(text) {
    if (text === '') return [];
    if (text.length > MAX_LENGTH) return null;
    const parts = text.split(' '); // tokens "Mx" / "Lx" alternate with "y"; doubled spaces leave ''
    if (parts.length % 2 || parts.length > 2 * MAX_POINTS) return null;
    const strokes = [];
    for (let i = 0; i < parts.length; i += 2) {
      const kind = parts[i].charAt(0), xs = parts[i].slice(1), ys = parts[i + 1];
      if (!NUMBER.test(xs) || !NUMBER.test(ys)) return null;
      const x = Number(xs), y = Number(ys);
      if (x > WIDTH || y > HEIGHT) return null;
      if (kind === 'M' && strokes.length < MAX_STROKES) strokes.push([[x, y]]);
      else if (kind === 'L' && strokes.length) strokes[strokes.length - 1].push([x, y]);
      else return null;
    }
    return strokes;
  }

  // The strokes being drawn, kept within the bounds: points past them are dropped, not refused
  // later, and points under 2 units from the last one add nothing but length.
  function createDrawing(strokes) {
    let points = strokes.reduce((n, s) => n + s.length, 0);
    const last = () => { const s = strokes[strokes.length - 1]; return s && s[s.length - 1]; };
    return {
      strokes, last,
      begin(p) {
        if (strokes.length >= MAX_STROKES || points >= MAX_POINTS) return false;
        strokes.push([p]);
        points += 1;
        return true;
      },
      extend(p) {
        const q = last();
        if (!q || points >= MAX_POINTS || (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 < 4) return false;
        strokes[strokes.length - 1].push(p);
        points += 1;
        return true;
      },
    };
  }

  if (typeof module === 'object' && module && module.exports) module.exports = { format, parse, createDrawing };
  if (typeof document === 'undefined') return;

  function setUp(pad) {
    const form = pad.closest('form'), field = form && form.elements[pad.dataset.field];
    if (!field || field.type !== 'hidden') return; // nothing to post to: leave the pad hidden
    const canvas = document.createElement('canvas'), context = canvas.getContext('2d');
    if (!context) return;
    canvas.width = WIDTH * SCALE; canvas.height = HEIGHT * SCALE; // resets the context: set it up after
    canvas.className = 'signature-pad__canvas';
    canvas.setAttribute('role', 'img'); canvas.setAttribute('aria-label', pad.dataset.label || '');
    const clear = document.createElement('button');
    clear.type = 'button'; // must not submit the form
    clear.className = 'button button--secondary signature-pad__clear';
    clear.textContent = pad.dataset.clearLabel || '';
    pad.append(canvas, clear);
    context.setTransform(SCALE, 0, 0, SCALE, 0, 0);
    context.lineWidth = 3;
    context.lineCap = context.lineJoin = 'round';
    context.strokeStyle = context.fillStyle = '#0b0c0c';
    const dot = (p) => { context.beginPath(); context.arc(p[0], p[1], 1.5, 0, 2 * Math.PI); context.fill(); };
    const segment = (a, b) => { context.beginPath(); context.moveTo(a[0], a[1]); context.lineTo(b[0], b[1]); context.stroke(); };
    let drawing, active = null, shown = null; // shown: the path data on the canvas
    // Shows the field's strokes; a value the server would refuse is dropped so what is posted is what is seen.
    const load = () => {
      const strokes = parse(field.value);
      if (!strokes) field.value = '';
      drawing = createDrawing(strokes || []);
      active = null;
      shown = field.value;
      context.clearRect(0, 0, WIDTH, HEIGHT);
      drawing.strokes.forEach((s) => { dot(s[0]); s.slice(1).forEach((p, i) => segment(s[i], p)); });
    };
    // Client pixels to units; clientLeft/Top skip a CSS border, clientWidth/Height the scaling.
    const unitPoint = (event) => {
      const box = canvas.getBoundingClientRect();
      if (!canvas.clientWidth || !canvas.clientHeight) return null;
      const x = Math.round((event.clientX - box.left - canvas.clientLeft) * WIDTH / canvas.clientWidth);
      const y = Math.round((event.clientY - box.top - canvas.clientTop) * HEIGHT / canvas.clientHeight);
      return [Math.min(WIDTH, Math.max(0, x)), Math.min(HEIGHT, Math.max(0, y))];
    };

    canvas.addEventListener('pointerdown', (event) => {
      if (active !== null || (event.pointerType === 'mouse' && event.button !== 0)) return;
      const p = unitPoint(event);
      if (!p || !drawing.begin(p)) return;
      event.preventDefault(); // no text selection or emulated mouse events while drawing
      active = event.pointerId;
      canvas.setPointerCapture(event.pointerId);
      dot(p);
    });
    canvas.addEventListener('pointermove', (event) => {
      if (event.pointerId !== active) return;
      const last = drawing.last(), p = unitPoint(event);
      if (p && drawing.extend(p)) segment(last, p);
    });
    const end = (event) => {
      if (event.pointerId !== active) return;
      active = null;
      field.value = shown = format(drawing.strokes);
    };
    ['pointerup', 'pointercancel', 'lostpointercapture'].forEach((type) => canvas.addEventListener(type, end));
    clear.addEventListener('click', () => { field.value = ''; load(); });
    // A hidden input's value is its value attribute, so a form reset would not undo drawing:
    // put back the value the server rendered.
    const rendered = field.value;
    form.addEventListener('reset', () => { field.value = rendered; load(); });
    // History navigation can restore the field after this ran; never interrupt a stroke.
    window.addEventListener('pageshow', () => { if (active === null && field.value !== shown) load(); });
    load();
    pad.hidden = false;
  }

  document.querySelectorAll('div.signature-pad[data-field]').forEach(setUp);
})();
