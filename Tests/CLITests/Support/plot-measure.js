// Measures the SVG plot this page embeds, as the browser laid it out, and writes the figures as
// JSON into <pre id="result"> for `chromium --dump-dom` (PlotBrowserTests): the SVG's size, every
// <text>'s box (relative to the SVG) and computed font size, every trace's point count and length.
const svg = document.querySelector('svg');
const box = svg.getBoundingClientRect();
const out = { width: box.width, height: box.height, texts: [], traces: [], dots: [] };
for (const t of svg.querySelectorAll('text')) {
  const r = t.getBoundingClientRect();
  out.texts.push({ text: t.textContent, left: r.left - box.left, top: r.top - box.top,
                   right: r.right - box.left, bottom: r.bottom - box.top,
                   fontSize: parseFloat(getComputedStyle(t).fontSize) });
}
for (const p of svg.querySelectorAll('path, polyline')) {
  const d = p.getAttribute('d') || p.getAttribute('points') || '';
  const title = p.querySelector('title');
  out.traces.push({ title: title ? title.textContent : '', points: (d.match(/[ML]/g) || []).length,
                    length: p.getTotalLength() });
}
for (const c of svg.querySelectorAll('circle')) {
  const title = c.querySelector('title');
  const r = c.getBoundingClientRect();
  out.dots.push({ title: title ? title.textContent : '', width: r.width });
}
document.getElementById('result').textContent = JSON.stringify(out);
