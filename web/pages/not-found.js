// The page for an address that names nothing here (a game the server does not know, too).
import { app, h, fill, setTitle } from '../lib/dom.js';
import { t } from '../lib/i18n.js';

export function notFoundPage() {
  setTitle(t('notFound.title'));
  document.body.dataset.page = 'not-found';
  fill(app, h('section', { class: 'not-found', id: 'not-found' },
    h('h1', {}, t('notFound.title')),
    h('p', {}, t('notFound.text')),
    h('div', { class: 'row' }, h('a', { class: 'button', href: '/' }, t('notFound.home')),
      h('a', { class: 'button secondary', href: '/rules' }, t('nav.rules')))));
}
