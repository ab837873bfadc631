/**
 * Roles and names that Arco Design (@arco-design/web-react 2.66) leaves out or gets wrong in its
 * own markup, with no prop to set them. Each fix is one selector on Arco's class names and one
 * attribute, applied to whatever Arco renders, wherever (pages, drawers, modals, pop-ups): one
 * observer for the whole console instead of a patch per page. React leaves attributes it never set
 * alone, so a fix stays until Arco replaces the element, and a replaced element is fixed again.
 * Check these when upgrading Arco: a fix that Arco makes itself should go from this list.
 */
import { i18n } from '../i18n/i18n.ts';

interface AriaFix {
  selector: string;
  apply: (el: Element) => void;
}

function setIfDifferent(el: Element, name: string, value: string): void {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

/** The previous value we set on an attribute that Arco itself also writes. */
const LEVEL_MARK = 'data-ec-aria-level';

const fixes: readonly AriaFix[] = [
  // Menu: a sub-menu's header is a focusable div with aria-expanded but no role, which is not a
  // menu's child (aria-required-children) and may not carry aria-expanded (aria-allowed-attr).
  // It opens a group of items: a menuitem.
  { selector: '.arco-menu-inline-header, .arco-menu-pop-header', apply: (el) => setIfDifferent(el, 'role', 'menuitem') },
  // Tabs: the tab titles have role=tab but nothing around them is a tablist (aria-required-parent).
  { selector: '.arco-tabs-header', apply: (el) => setIfDifferent(el, 'role', 'tablist') },
  // Pagination: the page-size chooser is a div with an aria-label and no role, and a generic
  // element may not be named (aria-prohibited-attr); as a group its label names the select.
  { selector: '.arco-pagination-option[aria-label]', apply: (el) => setIfDifferent(el, 'role', 'group') },
  // Table row selection: the checkboxes have no label; rowSelection.checkboxProps reaches only the
  // wrapping <label> (an aria-label there does not name the input) and not the header's checkbox.
  {
    selector: '.arco-table-th .arco-checkbox > input[type="checkbox"]',
    apply: (el) => setIfDifferent(el, 'aria-label', i18n.t('common:a11ySelectAll')),
  },
  {
    selector: '.arco-table-td .arco-checkbox > input[type="checkbox"]',
    apply: (el) => setIfDifferent(el, 'aria-label', i18n.t('common:a11ySelectRow')),
  },
  // Select: an aria-label given to the Select lands on its wrapper, not on the text input inside it
  // (a multiple select's tag input, a searchable select's input), which then has no label.
  {
    selector: '.arco-select[aria-label] input',
    apply: (el) => setIfDifferent(el, 'aria-label', el.closest('.arco-select')?.getAttribute('aria-label') ?? ''),
  },
  // Select: a searchable single select showing a value hides its search input with aria-hidden yet
  // keeps it focusable, as Tab reaches the select through it (aria-hidden-focus). A named one
  // (above) stays exposed: it is the select's labelled input.
  { selector: '.arco-select[aria-label] .arco-select-view-input[aria-hidden]', apply: (el) => el.removeAttribute('aria-hidden') },
  // TreeSelect: the same for a multiple tree select's tag input.
  {
    selector: '.arco-tree-select[aria-label] input',
    apply: (el) => setIfDifferent(el, 'aria-label', el.closest('.arco-tree-select')?.getAttribute('aria-label') ?? ''),
  },
  // Alert: the close button holds only an icon.
  { selector: '.arco-alert-close-btn', apply: (el) => setIfDifferent(el, 'aria-label', i18n.t('common:a11yClose')) },
  // Tree: aria-level counts from 0, but ARIA levels start at 1 (aria-valid-attr-value). Arco
  // rewrites the attribute when a node moves, so the value we set is remembered to tell them apart
  // (and the observer below forgets it when Arco writes that same value).
  {
    selector: '.arco-tree-node[aria-level]',
    apply: (el) => {
      const level = el.getAttribute('aria-level') ?? '0';
      if (el.getAttribute(LEVEL_MARK) === level) return;
      const fixed = String(Number(level) + 1);
      el.setAttribute(LEVEL_MARK, fixed);
      el.setAttribute('aria-level', fixed);
    },
  },
  // InputNumber: without min or max Arco writes aria-valuemin="-Infinity" / aria-valuemax="Infinity",
  // which are not numbers (aria-valid-attr-value); a spinbutton without bounds simply has none.
  { selector: '.arco-input-number input[aria-valuemax="Infinity"]', apply: (el) => el.removeAttribute('aria-valuemax') },
  { selector: '.arco-input-number input[aria-valuemin="-Infinity"]', apply: (el) => el.removeAttribute('aria-valuemin') },
];

function fixWithin(root: Element): void {
  for (const fix of fixes) {
    if (root.matches(fix.selector)) fix.apply(root);
    for (const el of root.querySelectorAll(fix.selector)) fix.apply(el);
  }
}

let installed = false;

/** Fixes what is on the page and, from then on, whatever Arco adds or re-levels. */
export function installArcoAriaFixes(root: HTMLElement = document.body): void {
  if (installed) return;
  installed = true;
  fixWithin(root);
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'attributes') {
        const el = record.target as Element;
        // Arco writing the very level we had set (a node moved one level deeper) is a new raw level.
        if (record.attributeName === 'aria-level' && record.oldValue === el.getAttribute('aria-level')) el.removeAttribute(LEVEL_MARK);
        fixWithin(el);
      }
      else for (const node of record.addedNodes) if (node instanceof Element) fixWithin(node);
    }
  }).observe(root, { childList: true, subtree: true, attributes: true, attributeOldValue: true, attributeFilter: ['aria-level', 'aria-valuemax', 'aria-valuemin', 'aria-hidden'] });
  // The names follow the language.
  i18n.on('languageChanged', () => fixWithin(root));
}
