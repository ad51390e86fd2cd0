import { render } from 'preact';
import './style.css';
import { SCREENS } from './screens/index.tsx';
import type { Props } from './ui.tsx';

const mount = document.getElementById('billing-app');
const data = document.getElementById('billing-props');
if (mount && data) {
  const props = JSON.parse(data.textContent ?? '{}') as Props;
  const Screen = SCREENS[props.screen];
  mount.textContent = '';
  if (Screen) render(<Screen props={props} />, mount);
  else mount.textContent = 'This screen is not part of this version of the admin app.';
}
