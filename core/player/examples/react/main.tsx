import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { SeekframePlayer } from './SeekframePlayer';

function App() {
  const [title, setTitle] = useState('Hello from React');
  const [time, setTime] = useState(0);
  return (
    <main>
      <label>
        Title <input value={title} onChange={(event) => setTitle(event.target.value)} />
      </label>
      <SeekframePlayer
        src="./composition/index.html"
        width={640}
        controls
        variables={{ title }}
        onReady={(detail) => console.log('ready', detail)}
        onTimeUpdate={setTime}
        onError={(detail) => console.error(detail.code, detail.message)}
      />
      <p>Time: {time.toFixed(2)} s</p>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<App />);
