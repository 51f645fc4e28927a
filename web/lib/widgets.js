// Small controls more than one page uses.
import { h, toast } from './dom.js';
import { t } from './i18n.js';

export function copy(text) {
  const done = () => toast(t('copied') + ': ' + text);
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, done);
  else {
    const ta = h('textarea', {}, text);
    document.body.append(ta);
    ta.select();
    try { document.execCommand('copy'); } catch (e) { /* the toast still shows the text */ }
    ta.remove();
    done();
  }
}

export function rulesSelect() {
  return h('select', { name: 'rules' }, h('option', { value: 'abapa' }, t('rules.abapa')), h('option', { value: 'awari' }, t('rules.awari')));
}
