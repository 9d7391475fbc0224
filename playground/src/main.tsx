import { createRoot } from 'react-dom/client';
import { App } from './app';
import './app.css';

/** The playground's entry: esbuild bundles it into dist/dev/assets/app.js (and app.css). */
const container = document.getElementById('root');
if (container !== null) createRoot(container).render(<App />);
