// DOM helpers. Text from other players is ALWAYS set with textContent (never innerHTML).

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

/**
 * Create an element. `props`: className, text (textContent), attrs {name: value},
 * dataset, on {event: handler}, and any other property assigned directly
 * (e.g. type, value, disabled, title). Children are nodes or strings (text nodes).
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null) continue;
    if (key === 'className') node.className = value;
    else if (key === 'text') node.textContent = String(value);
    else if (key === 'attrs') for (const [a, v] of Object.entries(value)) { if (v !== undefined && v !== null && v !== false) node.setAttribute(a, v === true ? '' : String(v)); }
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key === 'on') for (const [ev, fn] of Object.entries(value)) node.addEventListener(ev, fn);
    else node[key] = value;
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function show(node, visible) {
  if (node) node.hidden = !visible;
}

let toastRoot = null;

/** Unobtrusive toast; `kind` is "info", "error" or "success". */
export function toast(message, kind = 'info', ms = 4000) {
  toastRoot ??= document.getElementById('toasts');
  if (!toastRoot) return;
  const node = el('div', { className: `toast toast-${kind}`, text: message, attrs: { role: kind === 'error' ? 'alert' : 'status' } });
  toastRoot.append(node);
  while (toastRoot.children.length > 4) toastRoot.firstElementChild.remove();
  setTimeout(() => {
    node.classList.add('leaving');
    setTimeout(() => node.remove(), 300);
  }, ms);
}

/** Copy text to the clipboard, with a fallback for insecure (plain http) origins. */
export async function copyText(text) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* fall through */
  }
  const ta = el('textarea', { value: text, attrs: { readonly: true, 'aria-hidden': 'true' } });
  ta.style.position = 'fixed';
  ta.style.opacity = '0';
  document.body.append(ta);
  ta.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  ta.remove();
  return ok;
}
