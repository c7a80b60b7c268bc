// Inline SVG icons (static markup built with the DOM; no external assets, no emoji fonts needed).

const SVG_NS = 'http://www.w3.org/2000/svg';

const PATHS = {
  pen: ['M4 20l4.5-1 10-10a2.1 2.1 0 0 0-3-3l-10 10L4 20z', 'M13.5 7.5l3 3'],
  eraser: ['M7 20h13', 'M4.6 14.6l8.5-8.5a2 2 0 0 1 2.8 0l2 2a2 2 0 0 1 0 2.8L11 17.8a2 2 0 0 1-1.4.6H7.4a2 2 0 0 1-1.4-.6l-1.4-1.4a2 2 0 0 1 0-2.8z', 'M9 10l5 5'],
  fill: ['M5 11l6-6 7 7-6 6a1.5 1.5 0 0 1-2 0l-5-5a1.5 1.5 0 0 1 0-2z', 'M5 11h13', 'M20 15s1.5 2 1.5 3a1.5 1.5 0 0 1-3 0c0-1 1.5-3 1.5-3z', 'M9 3l2 2'],
  line: ['M5 19L19 5'],
  // pen pressure: a pen above a stroke that tapers
  pressure: ['M10 13l.8-3 6.7-6.7a1.6 1.6 0 0 1 2.2 2.2L13 12.2 10 13z', 'M3 20.5c4-.4 8-1.3 11-3', 'M3 20.5c4 .4 8 .6 11-1.1'],
  rect: ['M4 6.5h16v11H4z'],
  ellipse: ['M21 12c0 3.3-4 6-9 6s-9-2.7-9-6 4-6 9-6 9 2.7 9 6z'],
  zoomOut: ['M10.5 4a6.5 6.5 0 1 0 0 13a6.5 6.5 0 1 0 0-13z', 'M20 20l-4.8-4.8', 'M7.5 10.5h6'],
  undo: ['M9 14L4 9l5-5', 'M4 9h10.5a5.5 5.5 0 0 1 0 11H11'],
  trash: ['M4 7h16', 'M10 11v6', 'M14 11v6', 'M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12', 'M9 7V4h6v3'],
  crown: ['M3 8l4.5 4L12 5l4.5 7L21 8l-2 11H5L3 8z'],
  pencil: ['M4 20l4.5-1 10-10a2.1 2.1 0 0 0-3-3l-10 10L4 20z'],
  check: ['M5 12.5l4.5 4.5L19 7.5'],
  // streamer mode: the badge, and the host's show/hide of the room code
  stream: ['M12 12h.01', 'M8.5 8.5a5 5 0 0 0 0 7', 'M15.5 8.5a5 5 0 0 1 0 7', 'M5.6 5.6a9 9 0 0 0 0 12.8', 'M18.4 5.6a9 9 0 0 1 0 12.8'],
  eye: ['M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z', 'M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6z'],
  eyeOff: ['M3 3l18 18', 'M10.6 5.1A10 10 0 0 1 12 5c6.5 0 10 7 10 7a17 17 0 0 1-3.2 4.1', 'M6.6 6.6C3.9 8.3 2 12 2 12s3.5 7 10 7a9.8 9.8 0 0 0 5.4-1.6', 'M9.9 9.9a3 3 0 0 0 4.2 4.2'],
  skip: ['M5 5l10 7-10 7V5z', 'M19 5v14'],
  like: ['M7 10v10H4V10h3z', 'M7 10l4-7a2 2 0 0 1 3 2l-1 4h5.5a2 2 0 0 1 2 2.3l-1.2 7A2 2 0 0 1 17.3 20H7'],
  dislike: ['M7 14V4H4v10h3z', 'M7 14l4 7a2 2 0 0 0 3-2l-1-4h5.5a2 2 0 0 0 2-2.3l-1.2-7A2 2 0 0 0 17.3 4H7'],
  volume: ['M4 9h4l5-4v14l-5-4H4V9z', 'M16.5 8.5a5 5 0 0 1 0 7', 'M19 6a8.5 8.5 0 0 1 0 12'],
  mute: ['M4 9h4l5-4v14l-5-4H4V9z', 'M17 9l5 6', 'M22 9l-5 6'],
  more: ['M5 12h.01', 'M12 12h.01', 'M19 12h.01'],
  flag: ['M5 21V4', 'M5 4h11l-2 4 2 4H5'],
  play: ['M7 4l13 8-13 8V4z'],
  stop: ['M6 6h12v12H6z'],
  download: ['M12 4v11', 'M7 10l5 5 5-5', 'M5 20h14'],
};

/** An <svg> icon; decorative (aria-hidden) unless a label is given. */
export function icon(name, label) {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', `icon icon-${name}`);
  svg.setAttribute('fill', 'none');
  svg.setAttribute('stroke', 'currentColor');
  svg.setAttribute('stroke-width', '2');
  svg.setAttribute('stroke-linecap', 'round');
  svg.setAttribute('stroke-linejoin', 'round');
  if (label) {
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', label);
  } else {
    svg.setAttribute('aria-hidden', 'true');
  }
  for (const d of PATHS[name] || []) {
    const p = document.createElementNS(SVG_NS, 'path');
    p.setAttribute('d', d);
    svg.append(p);
  }
  return svg;
}

/** Replace the content of every [data-icon] element with its icon (keeps visually-hidden labels). */
export function hydrateIcons(root = document) {
  for (const node of root.querySelectorAll('[data-icon]')) {
    node.prepend(icon(node.dataset.icon));
  }
}
