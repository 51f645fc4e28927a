// The pages the mails link to: /email/confirm#c=CODE confirms an address (the code is in the
// fragment, so it reaches no server log and no Referer), and /email/unsubscribe#t=TOKEN stops the
// mails of a game at one address once the reader says so (a link checker that opens every link of
// a mail must not unsubscribe anyone).
import { app, h, fill, setTitle } from '../lib/dom.js';
import { t } from '../lib/i18n.js';
import { errorText } from '../lib/api.js';
import { confirmMail, unsubscribeMail } from '../lib/mail.js';

// The value of `name` in the address's fragment (`#c=...&x=...`), or ''.
function fragment(name) {
  return new URLSearchParams(location.hash.slice(1)).get(name) || '';
}

function frame(title, ...content) {
  setTitle(title);
  fill(app, h('section', { class: 'email-page', id: 'email-page' }, h('h1', {}, title), ...content));
}

export async function confirmPage() {
  document.body.dataset.page = 'email-confirm';
  const said = h('p', { id: 'email-result', 'aria-live': 'polite' });
  const links = h('div', { class: 'row' });
  frame(t('mail.confirmTitle'), said, links);
  const code = fragment('c');
  if (!code) {
    said.textContent = t('mail.noCode');
    return;
  }
  said.textContent = t('mail.confirming');
  try {
    const game = await confirmMail(code);
    said.textContent = t('mail.confirmed');
    said.dataset.done = '1';
    fill(links, h('a', { class: 'button', id: 'email-game', href: '/game/' + game }, t('mail.toGame')));
  } catch (e) {
    said.textContent = errorText(e);
    said.dataset.failed = '1';
  }
  // The code has done its work: it leaves the address bar and the history.
  history.replaceState(null, '', location.pathname);
}

export function unsubscribePage() {
  document.body.dataset.page = 'email-unsubscribe';
  const token = fragment('t');
  const said = h('p', { id: 'email-result', 'aria-live': 'polite' }, token ? t('mail.unsubAsk') : t('mail.noCode'));
  const button = h('button', { id: 'email-stop', hidden: !token, onclick: async () => {
    button.disabled = true;
    try {
      await unsubscribeMail(token);
      said.textContent = t('mail.unsubDone');
      said.dataset.done = '1';
      button.hidden = true;
    } catch (e) {
      said.textContent = errorText(e);
      button.disabled = false;
    }
  } }, t('mail.off'));
  frame(t('mail.unsubTitle'), said, h('div', { class: 'row' }, button));
}
