console.error(JSON.stringify([performance.now()]));
