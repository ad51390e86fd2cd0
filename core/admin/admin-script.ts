/**
 * The admin screens' one script, served from /wp-admin/js/ (so the pages need no inline script and
 * the Content-Security-Policy can forbid it). Buttons with `data-billing-ajax="<action>"` post that
 * action to admin-ajax.php with their other `data-*` fields and the page's `billing_admin` nonce.
 */
export const ADMIN_SCRIPT = `'use strict';
(function () {
  function meta(name) {
    var m = document.querySelector('meta[name="' + name + '"]');
    return m ? m.getAttribute('content') : '';
  }
  function notice(text) {
    var n = document.getElementById('billing-notice');
    if (!n) return;
    n.textContent = text;
    n.hidden = false;
  }
  document.addEventListener('click', function (event) {
    var button = event.target && event.target.closest ? event.target.closest('[data-billing-ajax]') : null;
    if (!button) return;
    event.preventDefault();
    var body = new URLSearchParams();
    body.set('action', button.getAttribute('data-billing-ajax'));
    body.set('_wpnonce', meta('billing-admin-nonce'));
    Object.keys(button.dataset).forEach(function (k) {
      if (k !== 'billingAjax') body.set(k, button.dataset[k]);
    });
    button.disabled = true;
    fetch(meta('billing-ajax-url'), { method: 'POST', body: body, credentials: 'same-origin' })
      .then(function (res) { return res.text(); })
      .then(function (text) {
        var answer = null;
        try { answer = JSON.parse(text); } catch (e) { answer = null; }
        if (answer && answer.success) { window.location.reload(); return; }
        button.disabled = false;
        if (text === '-1') notice('Your session has expired. Reload the page and try again.');
        else notice(answer && answer.data && answer.data.message ? answer.data.message : 'The request failed.');
      })
      .catch(function () { button.disabled = false; notice('The request failed.'); });
  });
})();
`;
